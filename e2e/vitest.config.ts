import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One Chromium and one server per file; files in a row keep the machine unhurried.
    fileParallelism: false,
  },
});
