import { defineConfig } from 'vitest/config';

/** One run covers every workspace: unit and HTTP tests, then browser tests. */
export default defineConfig({
  test: {
    projects: [
      'packages/contract',
      'packages/sim',
      'packages/test-support',
      'apps/server',
      'apps/web',
      'e2e',
      'bench',
    ],
    reporters: process.env.CI
      ? ['default', ['json', { outputFile: 'test-results/vitest.json' }]]
      : ['default'],
  },
});
