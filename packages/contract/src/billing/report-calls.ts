import { z } from 'zod';

/**
 * The money reports of card-swipe billing (server modules/billing/reports, console
 * features/billing/reports): the daily cash report per cashier, statistics of water, energy and
 * money, revenue by billing mode and tier, and the reconciliation of card images, the ledger and
 * the controllers' records with the ledger's own checks. Amounts are integer fen; days are the
 * tenant's calendar days (its time zone), given as YYYY-MM-DD, both ends included.
 */
export const BILLING_REPORT_CALLS = {
  cashReport: '/api/billing/report/queryCashReport',
  exportCashReport: '/api/billing/report/exportCashReport',
  statistics: '/api/billing/report/queryStatistics',
  exportStatistics: '/api/billing/report/exportStatistics',
  revenue: '/api/billing/report/queryRevenue',
  exportRevenue: '/api/billing/report/exportRevenue',
  reconciliation: '/api/billing/report/queryReconciliation',
  exportReconciliation: '/api/billing/report/exportReconciliation',
  ledgerChecks: '/api/billing/report/queryLedgerChecks',
} as const;

/** The export formats of the money reports (the export module's writers). */
export const BILLING_REPORT_FORMATS = ['xlsx', 'pdf'] as const;
export type BillingReportFormat = (typeof BILLING_REPORT_FORMATS)[number];

/** Statistics per calendar day, month or year. */
export const STATISTICS_PERIODS = ['day', 'month', 'year'] as const;
export type StatisticsPeriod = (typeof STATISTICS_PERIODS)[number];

/** What statistics are grouped by: a household's village, a well (its controller), a cashier. */
export const STATISTICS_GROUPS = ['village', 'well', 'cashier'] as const;
export type StatisticsGroup = (typeof STATISTICS_GROUPS)[number];

/** The longest range of a statistics or revenue query: ten years of days. */
export const REPORT_MAX_DAYS = 3700;

const invalid = { error: 'validation.invalid' };
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether YYYY-MM-DD is a real calendar day (not the 30th of February). */
export function isCalendarDay(text: string): boolean {
  const match = DAY.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const at = new Date(Date.UTC(year, month - 1, day));
  return (
    year >= 2000 &&
    year <= 2200 &&
    at.getUTCFullYear() === year &&
    at.getUTCMonth() === month - 1 &&
    at.getUTCDate() === day
  );
}

/** Days from `start` to `end` (0 for the same day; negative when end comes first). */
export function daysBetween(start: string, end: string): number {
  return Math.round(
    (Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000,
  );
}

const daySchema = z.string({ error: 'validation.required' }).max(10).refine(isCalendarDay, invalid);
const idSchema = z.string().regex(/^\d{1,18}$/, invalid);
const formatSchema = z.enum(BILLING_REPORT_FORMATS).default('xlsx');

const span = (query: object) => {
  const range = query as { start: string; end: string };
  return daysBetween(range.start, range.end);
};

/** A range of days, the end not before the start and at most REPORT_MAX_DAYS long. */
const rangeOf = <T extends z.ZodRawShape>(shape: T) =>
  z
    .object({ start: daySchema, end: daySchema, ...shape })
    .refine((query) => span(query) >= 0, {
      path: ['end'],
      error: 'validation.endBeforeStart',
    })
    .refine((query) => span(query) < REPORT_MAX_DAYS, {
      path: ['end'],
      error: 'validation.invalid',
    });

/**
 * GET queryCashReport: one day's money at the desk, per cashier (one cashier when given); without
 * a day, the tenant's today (the browser's calendar may be another zone's).
 */
export const cashReportQuerySchema = z.object({
  day: daySchema.optional(),
  cashierId: idSchema.optional(),
});
export type CashReportQuery = z.infer<typeof cashReportQuerySchema>;
export const cashReportExportQuerySchema = cashReportQuerySchema.extend({ format: formatSchema });

/** One cashier's day: cash taken, cash paid back, online top-ups, reversals, net and count. */
export const cashReportRowSchema = z.object({
  cashierId: z.string(),
  cashierName: z.string(),
  cashInFen: z.number(),
  cashRefundedFen: z.number(),
  onlineFen: z.number(),
  /** Reversals of the day's desk transactions: recharges taken back (−), refunds undone (+). */
  reversedFen: z.number(),
  /** Cash the drawer should hold: cash in − cash refunded ± cash reversals. */
  netCashFen: z.number(),
  /** Everything the desk took in net: cash and online, refunds and reversals counted. */
  netFen: z.number(),
  count: z.number(),
});
export type CashReportRow = z.infer<typeof cashReportRowSchema>;

/** One desk transaction of the day (the printed report's detail). */
export const cashReportEntrySchema = z.object({
  txnId: z.string(),
  at: z.string(),
  kind: z.string(),
  method: z.string().nullable(),
  cashierId: z.string(),
  cashierName: z.string(),
  householdName: z.string().nullable(),
  village: z.string().nullable(),
  externalRef: z.string().nullable(),
  /** Signed: money in positive, money out (refunds, recharges reversed) negative. */
  amountFen: z.number(),
});
export type CashReportEntry = z.infer<typeof cashReportEntrySchema>;

export const cashReportSchema = z.object({
  day: z.string(),
  timeZone: z.string(),
  rows: z.array(cashReportRowSchema),
  total: cashReportRowSchema,
  entries: z.array(cashReportEntrySchema),
});
export type CashReport = z.infer<typeof cashReportSchema>;

/** GET queryStatistics: water, energy and money by a group and period over a range of days. */
export const statisticsQuerySchema = rangeOf({
  groupBy: z.enum(STATISTICS_GROUPS),
  period: z.enum(STATISTICS_PERIODS),
});
export type StatisticsQuery = z.infer<typeof statisticsQuerySchema>;
export const statisticsExportQuerySchema = rangeOf({
  groupBy: z.enum(STATISTICS_GROUPS),
  period: z.enum(STATISTICS_PERIODS),
  format: formatSchema,
});

/**
 * One group in one period. Water and energy come from the wells' sessions (none for a cashier);
 * charged is the revenue the ledger posted for consumption net of reversals; recharged and
 * refunded are the desk's money (none for a well).
 */
export const statisticsRowSchema = z.object({
  /** "2026-11-26", "2026-11" or "2026". */
  period: z.string(),
  groupKey: z.string(),
  groupName: z.string(),
  waterM3: z.number().nullable(),
  energyKwh: z.number().nullable(),
  sessions: z.number().nullable(),
  chargedFen: z.number().nullable(),
  rechargedFen: z.number().nullable(),
  refundedFen: z.number().nullable(),
});
export type StatisticsRow = z.infer<typeof statisticsRowSchema>;

export const statisticsSchema = z.object({
  timeZone: z.string(),
  groupBy: z.enum(STATISTICS_GROUPS),
  period: z.enum(STATISTICS_PERIODS),
  rows: z.array(statisticsRowSchema),
  /** Per group over the whole range (the chart's bars), then the grand total. */
  groups: z.array(statisticsRowSchema),
  total: statisticsRowSchema,
});
export type Statistics = z.infer<typeof statisticsSchema>;

/** GET queryRevenue: consumption settled by period, billing mode and tier. */
export const revenueQuerySchema = rangeOf({ period: z.enum(STATISTICS_PERIODS) });
export type RevenueQuery = z.infer<typeof revenueQuerySchema>;
export const revenueExportQuerySchema = rangeOf({
  period: z.enum(STATISTICS_PERIODS),
  format: formatSchema,
});

/**
 * Revenue of one period by billing mode and tier (tier 0: within the quota; a session crossing
 * a boundary counts in each tier it reached, by its parts).
 */
export const revenueRowSchema = z.object({
  period: z.string(),
  billingMode: z.string(),
  tier: z.number(),
  waterM3: z.number(),
  energyKwh: z.number(),
  sessions: z.number(),
  amountFen: z.number(),
});
export type RevenueRow = z.infer<typeof revenueRowSchema>;

/** The ledger's revenue of one period: posted, taken back by reversals, net. */
export const revenuePeriodSchema = z.object({
  period: z.string(),
  postedFen: z.number(),
  reversedFen: z.number(),
  netFen: z.number(),
  /** Net revenue the sessions' tier parts do not account for (0 when every fen is explained). */
  unallocatedFen: z.number(),
});
export type RevenuePeriod = z.infer<typeof revenuePeriodSchema>;

export const revenueSchema = z.object({
  timeZone: z.string(),
  period: z.enum(STATISTICS_PERIODS),
  rows: z.array(revenueRowSchema),
  periods: z.array(revenuePeriodSchema),
  total: revenuePeriodSchema,
});
export type Revenue = z.infer<typeof revenueSchema>;

/**
 * Why a card's balance differs from the ledger's, each with the amount it accounts for (positive:
 * the card holds more than the ledger says):
 * - pendingCardWrite: a recharge or refund the desk has not yet written onto the card;
 * - runningSessionHold: a running session's hold (the ledger set it aside, the card still has it);
 * - lateLostCardSession: sessions of a lost card uploaded after its replacement was written;
 * - controllerConflict: a record the server refused (same key, other amount): the controller
 *   took it off the card, the ledger did not;
 * - controllerRefused: a record the server could not post at all;
 * - controllerAmountDiffers: the controller charged another amount than the ledger posted;
 * - lateSession: an offline session of the card posted after the card was last written;
 * - ledgerCorrection: a reversal (or another entry) of the ledger since the card was written.
 */
export const RECONCILIATION_REASONS = [
  'pendingCardWrite',
  'runningSessionHold',
  'lateLostCardSession',
  'controllerConflict',
  'controllerRefused',
  'controllerAmountDiffers',
  'lateSession',
  'ledgerCorrection',
] as const;
export type ReconciliationReason = (typeof RECONCILIATION_REASONS)[number];

/** GET queryReconciliation: the tenant's households (a village's, one's), differences first. */
export const reconciliationQuerySchema = z.object({
  village: z.string().trim().max(64).optional(),
  householdId: idSchema.optional(),
  onlyDifferences: z
    .enum(['true', 'false'], invalid)
    .transform((value) => value === 'true')
    .optional(),
});
export type ReconciliationQuery = z.infer<typeof reconciliationQuerySchema>;
export const reconciliationExportQuerySchema = z.object({
  village: z.string().trim().max(64).optional(),
  householdId: idSchema.optional(),
  onlyDifferences: z
    .enum(['true', 'false'], invalid)
    .transform((value) => value === 'true')
    .optional(),
  format: formatSchema,
});

export const reconciliationItemSchema = z.object({
  reason: z.enum(RECONCILIATION_REASONS),
  amountFen: z.number(),
  /** The transaction, session or controller record behind it. */
  ref: z.string().nullable(),
});
export type ReconciliationItem = z.infer<typeof reconciliationItemSchema>;

/** One household with its current card: the three views of its money side by side. */
export const reconciliationRowSchema = z.object({
  householdId: z.string(),
  householdName: z.string(),
  village: z.string(),
  cardId: z.string().nullable(),
  cardNo: z.string().nullable(),
  cardState: z.string().nullable(),
  /** The balance the card was last written with at the desk (0 for a card never written). */
  cardImageFen: z.number(),
  cardWrittenAt: z.string().nullable(),
  /** What the card's controllers took off it since (their records). */
  controllerChargedFen: z.number(),
  /** The card image less the controllers' charges: what the card holds now. */
  cardBalanceFen: z.number(),
  /** What the ledger posted for the card's consumption over the same time. */
  ledgerChargedFen: z.number(),
  ledgerAvailableFen: z.number(),
  ledgerHeldFen: z.number(),
  /** cardBalanceFen − ledgerAvailableFen. */
  differenceFen: z.number(),
  items: z.array(reconciliationItemSchema),
  /** The difference no reason accounts for (0 when all is explained). */
  unexplainedFen: z.number(),
});
export type ReconciliationRow = z.infer<typeof reconciliationRowSchema>;

/** The ledger's own invariants, each passed or failed, with what was found. */
export const LEDGER_CHECKS = [
  'ledgerBalanced',
  'transactionsBalanced',
  'balanceChain',
  'accountSequence',
  'holdsEndedOnce',
] as const;
export type LedgerCheckName = (typeof LEDGER_CHECKS)[number];

export const ledgerCheckSchema = z.object({
  check: z.enum(LEDGER_CHECKS),
  passed: z.boolean(),
  /** Items that break it (transactions, accounts); 0 when passed. */
  failures: z.number(),
  /** Up to ten of them (ids), to look up. */
  samples: z.array(z.string()),
  /** The sums a check compares (debits and credits over the ledger). */
  debitsFen: z.number().optional(),
  creditsFen: z.number().optional(),
});
export type LedgerCheck = z.infer<typeof ledgerCheckSchema>;

export const ledgerChecksSchema = z.object({
  checkedAt: z.string(),
  transactions: z.number(),
  postings: z.number(),
  checks: z.array(ledgerCheckSchema),
});
export type LedgerChecks = z.infer<typeof ledgerChecksSchema>;

export const reconciliationSchema = z.object({
  rows: z.array(reconciliationRowSchema),
  households: z.number(),
  withDifference: z.number(),
  /** Households whose difference is not fully explained. */
  unexplained: z.number(),
  /** Card balances and ledger balances over the households listed. */
  cardTotalFen: z.number(),
  ledgerTotalFen: z.number(),
});
export type Reconciliation = z.infer<typeof reconciliationSchema>;

/** Yuan with two decimals from integer fen, for screens and files ("-12.30"). */
export function fenToYuan(fen: number): string {
  const sign = fen < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(fen));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
