import { defineConfig } from 'vitest/config';

/**
 * One run covers every workspace: unit and HTTP tests, then browser tests (`npm test` runs the
 * browser tests beside the rest instead, in a vitest of their own: scripts/test.mjs).
 */
export default defineConfig({
  test: {
    projects: [
      'packages/contract',
      'packages/sim',
      'packages/card-reader',
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
