import { billingTxnEntity, entityCalls, LEDGER_CALLS } from '@shuili/contract';

/**
 * The ledger calls a cashier role needs (spread into its default grants where the billing roles
 * are declared): recharge, refund, balances, and the transaction list with its exports.
 * Reversal is not among them: a correction is an administrator's (ROLE_ADMIN holds every URL).
 */
export const LEDGER_CASHIER_CALLS: readonly string[] = [
  LEDGER_CALLS.recharge,
  LEDGER_CALLS.refund,
  LEDGER_CALLS.balance,
  entityCalls(billingTxnEntity).query,
  entityCalls(billingTxnEntity).exportXlsx,
  entityCalls(billingTxnEntity).exportPdf,
];
