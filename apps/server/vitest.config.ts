import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts'],
    // Each file starts its own server over a fresh database (PGlite takes seconds to open).
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
