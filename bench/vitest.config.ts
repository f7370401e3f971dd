import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'bench', include: ['*.test.ts'], testTimeout: 180_000, hookTimeout: 60_000 },
});
