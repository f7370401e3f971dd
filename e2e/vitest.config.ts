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
    // The files share one module graph instead of importing the server afresh each, as the
    // server's tests do (apps/server/vitest.config.ts): each file still starts its own server,
    // database and Chromium.
    isolate: false,
    // A value travels browser → server → broker → device and back: on a loaded 2-core machine that
    // takes longer than vitest's default second, and a poll that has not seen it yet is no failure.
    expect: { poll: { timeout: 15_000 } },
  },
});
