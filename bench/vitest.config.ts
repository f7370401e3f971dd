import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'bench',
    // `npm test` runs these smoke runs in a lane of their own once the browser lane is done
    // (scripts/test.mjs): the units lane, which has one worker, leaves them out.
    include: process.env.SHUILI_TEST_LANE === 'units' ? [] : ['*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 60_000,
  },
});
