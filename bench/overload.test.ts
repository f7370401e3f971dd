import { describe, expect, it } from 'vitest';
import { runOverload } from './overload';

const backends = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

// The smoke version runs with the tests so the benchmark keeps working; no time is asserted.
describe('overload benchmark (smoke)', () => {
  it('floods each database and Mosquitto without losing an acknowledged message', async () => {
    const { summary } = await runOverload(true);
    expect(summary.results.map((result) => result.backend)).toEqual(backends);
    for (const result of summary.results) {
      expect(result.sustainable.ackedPerSecond).toBeGreaterThan(0);
      expect(result.overload.offeredPerSecond).toBe(
        summary.plan.factor * result.sustainable.ackedPerSecond,
      );
      expect(result.overload.acknowledged).toBeGreaterThan(0);
      // Every acknowledged reading is stored: acknowledged means committed.
      expect(result.lostAcknowledgedPoints).toBe(0);
      expect(result.storedPoints).toBe(result.acknowledgedMessages * 3);
      expect(result.memory.duringMaxMiB).toBeGreaterThan(0);
      expect(result.overload.health?.count).toBeGreaterThan(0);
      expect(result.recovery.probeAck.count).toBeGreaterThan(0);
    }
    if (summary.mosquitto) expect(summary.mosquitto.overload.acknowledged).toBeGreaterThan(0);
  });
});
