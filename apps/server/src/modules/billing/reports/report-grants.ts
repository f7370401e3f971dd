import { BILLING_REPORT_CALLS } from '@shuili/contract';

/**
 * The report calls a cashier role needs: their own day's cash report and the recharge records.
 * Statistics, revenue and the reconciliation are a manager's (ROLE_ADMIN holds every URL).
 */
export const REPORT_CASHIER_CALLS: readonly string[] = [
  BILLING_REPORT_CALLS.cashReport,
  BILLING_REPORT_CALLS.exportCashReport,
];
