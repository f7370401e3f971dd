import { describe, expect, it } from 'vitest';
import { runRealtime } from './realtime';

const backends = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

// The smoke version runs with the tests so the benchmark keeps working; no time is asserted.
describe('realtime benchmark (smoke)', () => {
  it('delivers every acknowledged reading to every signed-in browser, beside Mosquitto', async () => {
    const { summary } = await runRealtime(true);
    expect(summary.results.map((result) => result.backend)).toEqual(backends);
    const measured = summary.mosquitto ? [...summary.results, summary.mosquitto] : summary.results;
    for (const result of measured) {
      expect(result.acknowledged).toBeGreaterThan(0);
      expect(result.unacknowledged).toBe(0);
      expect(result.perBrowser).toHaveLength(summary.plan.browsers);
      for (const browser of result.perBrowser) expect(browser.received).toBe(result.acknowledged);
      expect(result.missed).toBe(0);
      expect(result.browserConnectionsLost).toBe(0);
      expect(result.overall.count).toBe(result.acknowledged * summary.plan.browsers);
    }
  });
});
