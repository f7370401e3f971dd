import { describe, expect, it } from 'vitest';
import { runReport } from './report';

const backends = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

// The report benchmark's smoke version runs with the tests so it keeps working; no time is asserted.
describe('report benchmark (smoke)', () => {
  it('measures the aggregate calls on each database beside the plain GROUP BY, answers equal', async () => {
    const { summary } = await runReport(true);
    expect(summary.results.map((result) => result.backend)).toEqual(backends);
    for (const result of summary.results) {
      expect(result.rows).toBe(10 * 3 * 7 * 24);
      expect(result.calls.map((call) => call.call)).toEqual(['device week', 'devices day']);
      for (const call of result.calls) {
        expect(call.answersEqual).toBe(true);
        expect(call.bucketsPerAnswer).toBeGreaterThan(0);
        expect(call.shuili.runs).toBe(summary.plan.runs);
        expect(call.peer.runs).toBe(summary.plan.runs);
        expect(call.shuili.p50Ms).toBeGreaterThan(0);
        expect(call.peer.p50Ms).toBeGreaterThan(0);
      }
      expect(result.tenantDay.fromReadings.runs).toBe(summary.plan.referenceRuns);
      expect(result.tenantDay.fromRollup.runs).toBe(summary.plan.referenceRuns);
    }
  });
});
