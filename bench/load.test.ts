import { describe, expect, it } from 'vitest';
import { SCREENS } from './lib/load-screens';
import { runLoad } from './load';

const backends = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

// The smoke version runs with the tests so the benchmark keeps working; no time is asserted.
describe('load: users and telemetry together (smoke)', () => {
  it('runs every screen of the mix without an error while telemetry is stored', async () => {
    const { summary } = await runLoad(true);
    expect(summary.results.map((result) => result.backend)).toEqual(backends);
    for (const result of summary.results) {
      expect(result.signIn.users).toBe(summary.plan.users);
      expect(result.users.firstErrors).toEqual([]);
      expect(result.users.errors).toBe(0);
      // Each user tours its role's screens, so every screen of the mix was opened.
      expect(Object.keys(result.users.byScreen)).toEqual(
        expect.arrayContaining(SCREENS.map((screen) => screen.name)),
      );
      expect(result.users.commands.outcomes['no answer'] ?? 0).toBe(0);
      expect(result.users.commands.outcomes.succeeded).toBeGreaterThan(0);
      expect(result.telemetry.acknowledged).toBeGreaterThan(0);
      expect(result.telemetry.unacknowledged).toBe(0);
      expect(result.telemetry.acknowledgedLost).toBe(0);
      expect(result.live.browsers).toBe(summary.plan.users);
      expect(result.live.delay.count).toBeGreaterThan(0);
      expect(result.live.connectionsLost).toBe(0);
    }
    // Two databases, each prepared and toured: 45 to 90 s beside the unit lane, and past the
    // suite's 180 s once when more ran beside it (the time is not what this checks).
  }, 360_000);
});
