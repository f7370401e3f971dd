import { defineProject } from 'vitest/config';

// The service is tested over a real WebSocket on 127.0.0.1, with cards as files in a temporary folder.
export default defineProject({
  test: { name: 'card-reader', include: ['src/**/*.test.ts'], testTimeout: 20_000 },
});
