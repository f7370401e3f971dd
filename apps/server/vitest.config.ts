import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts'],
    // Each file starts its own server over a fresh database (PGlite takes seconds to open).
    // 60 s: npm test runs two of these files beside a browser test (scripts/test.mjs), so on
    // 2 cores a test has about half a core; the heaviest (migrate.test.ts's two starts with a
    // month of history) ran past 30 s on a loaded machine.
    testTimeout: 60_000,
    // The files of a worker share one module graph instead of importing the server afresh each:
    // 20 files took 211 s instead of 270 s. Each file still starts its own server and database;
    // what a module keeps between files (caches keyed by server or database) must stay so keyed.
    isolate: false,
    hookTimeout: 120_000,
    // For the same reason a poll waits longer than vitest's default second before it fails.
    expect: { poll: { timeout: 10_000 } },
  },
});
