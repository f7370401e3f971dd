import { LedgerService } from '../modules/billing/ledger/ledger.service';
import type { EntitySample } from './entity-samples';

/** The money reports' read-only entities' samples (entity-samples.ts spreads them in). */
export const BILLING_REPORT_SAMPLES: Record<string, EntitySample> = {
  RechargeRecord: {
    // An online recharge of a household of its own, found by its payment reference.
    search: 'externalRef',
    create: async (u, ctx) => ({
      kind: 'recharge',
      amountYuan: '8.80',
      householdId: await ctx.fresh('billing_household'),
      method: 'online',
      externalRef: `ALI${u.digits}`,
      memo: `Topped up ${u.text}`,
    }),
    // Recharges are the ledger's transactions: posted with their balanced postings.
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
