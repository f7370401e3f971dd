import { defineProject } from 'vitest/config';

// Devices connect to a real broker (Mosquitto in CI, beside the whole suite): seconds, not ms.
export default defineProject({
  test: { name: 'sim', include: ['src/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 30_000 },
});
