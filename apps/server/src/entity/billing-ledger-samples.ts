import { LedgerService } from '../modules/billing/ledger/ledger.service';
import type { EntitySample } from './entity-samples';

/** The billing ledger's read-only entities' samples (entity-samples.ts spreads them in). */
export const BILLING_LEDGER_SAMPLES: Record<string, EntitySample> = {
  Transaction: {
    // An online recharge of a household of its own: its payment reference is the call's.
    search: 'externalRef',
    create: async (u, ctx) => ({
      kind: 'recharge',
      amountYuan: '12.50',
      householdId: await ctx.fresh('billing_household'),
      method: 'online',
      externalRef: `WX${u.digits}`,
      memo: `Paid online ${u.text}`,
    }),
    // Only the ledger writes transactions (with their balanced postings): a bare row would not
    // commit (migration 019).
    write: async (sql, tenantId, values) =>
      (
        await new LedgerService().recharge(sql, {
          tenantId,
          idempotencyKey: `sample-${String(values.externalRef)}`,
          householdId: String(values.householdId),
          amountFen: Math.round(Number(values.amountYuan) * 100),
          method: 'online',
          externalRef: String(values.externalRef),
          memo: String(values.memo),
        })
      ).txnId,
  },
};
