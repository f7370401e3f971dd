import { describe, expect, it } from 'vitest';
import { runLedger } from './ledger';

// The ledger benchmark's smoke version runs with the tests so it keeps working; no time is asserted.
describe('ledger benchmark (smoke)', () => {
  it('measures balances, statistics and recharges beside their peers, nothing lost or doubled', async () => {
    const { summary } = await runLedger(true);
    expect(summary.results).toHaveLength(1);
    for (const result of summary.results) {
      expect(result.entries).toBe(summary.plan.data.entries);
      expect(result.postings).toBe(2 * result.entries);
      expect(result.balance.shuili.count).toBe(summary.plan.balanceRuns);
      expect(result.balance.shuili.p50Ms).toBeGreaterThan(0);
      expect(result.statistics.villages).toBe(summary.plan.data.villages);
      expect(result.statistics.chargedFen).toBeGreaterThan(0);
      expect(result.recharges.shuili.completed).toBeGreaterThan(0);
      expect(result.recharges.shuili.failures).toBe(0);
      expect(result.recharges.ledger).toMatchObject({ lost: 0, doubled: 0, wrongBalances: 0 });
      expect(result.recharges.peer.completed).toBeGreaterThan(0);
    }
  });
});
