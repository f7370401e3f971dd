import { z } from 'zod';

/**
 * The ledger's own calls (server modules/billing/ledger): a cashier's recharge, refund and
 * reversal, and a household's balance. The cashier is always the signed-in user. Amounts are
 * integer fen. The client makes the idempotency key (one per intended transaction) and sends the
 * same key again when it retries: the ledger posts it once.
 */
export const LEDGER_CALLS = {
  recharge: '/api/billing/ledger/recharge',
  refund: '/api/billing/ledger/refund',
  reverse: '/api/billing/ledger/reverse',
  balance: '/api/billing/ledger/queryBalance',
} as const;

/** The largest single amount (10 million yuan): far above any farmer's payment, far below 2^53. */
export const LEDGER_MAX_AMOUNT_FEN = 1_000_000_000;

export const LEDGER_METHODS = ['cash', 'online'] as const;
export type LedgerMethod = (typeof LEDGER_METHODS)[number];

export const LEDGER_TXN_KINDS = [
  'recharge',
  'refund',
  'hold',
  'settle',
  'void',
  'consumption',
  'reversal',
] as const;
export type LedgerTxnKind = (typeof LEDGER_TXN_KINDS)[number];

const invalid = { error: 'validation.invalid' };

const id = z
  .union([z.string(), z.number().int().nonnegative()], invalid)
  .transform((value) => String(value))
  .pipe(z.string().regex(/^\d{1,18}$/, invalid));

/** Whole fen, at least one. */
export const amountFenSchema = z.number(invalid).int(invalid).min(1).max(LEDGER_MAX_AMOUNT_FEN);

/** Letters, digits and - _ . : (a UUID, or "desk3-20261126-0007"), up to 128. */
export const idempotencyKeySchema = z
  .string({ error: 'validation.required' })
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_.:-]+$/, { error: 'validation.idempotencyKey' });

const memo = z.string(invalid).trim().max(500);

/** POST recharge: money paid in at the desk (cash) or received online (its payment reference). */
export const rechargeSchema = z
  .object({
    householdId: id,
    amountFen: amountFenSchema,
    method: z.enum(LEDGER_METHODS),
    externalRef: z.string(invalid).trim().min(1).max(128).optional(),
    idempotencyKey: idempotencyKeySchema,
    cardId: id.optional(),
    memo: memo.optional(),
  })
  .superRefine((input, ctx) => {
    if (input.method === 'online' && !input.externalRef)
      ctx.addIssue({ code: 'custom', path: ['externalRef'], message: 'validation.required' });
  });
export type RechargeRequest = z.infer<typeof rechargeSchema>;

/** POST refund: cash paid back from the balance not held by a running session. */
export const refundSchema = z.object({
  householdId: id,
  amountFen: amountFenSchema,
  idempotencyKey: idempotencyKeySchema,
  cardId: id.optional(),
  memo: memo.optional(),
});
export type RefundRequest = z.infer<typeof refundSchema>;

/** POST reverse: a correction, as the mirror of an earlier transaction (once per transaction). */
export const reverseSchema = z.object({
  txnId: id,
  idempotencyKey: idempotencyKeySchema,
  reason: z.string({ error: 'validation.required' }).trim().min(1).max(500),
});
export type ReverseRequest = z.infer<typeof reverseSchema>;

/** What a posting call answers: the transaction, and whether it had been posted before. */
export const ledgerPostedSchema = z.object({
  txnId: z.string(),
  replayed: z.boolean(),
});
export type LedgerPosted = z.infer<typeof ledgerPostedSchema>;

/** GET queryBalance. */
export const balanceQuerySchema = z.object({ householdId: id });

/** A household's money: what it may spend or have refunded, and what running sessions hold. */
export const householdBalanceSchema = z.object({
  householdId: z.string(),
  availableFen: z.number(),
  heldFen: z.number(),
});
export type HouseholdBalance = z.infer<typeof householdBalanceSchema>;
