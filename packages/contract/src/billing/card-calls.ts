import { z } from 'zod';
import { BILLING_PATH } from '../entities/billing/billing-targets';
import { CARD_NO_PATTERN } from '../entities/billing/card-options';
import { idSchema as id } from '../entity-kit/schemas';

/**
 * The service desk's calls (issue 20, /skgg/binding, /recharge, /refund, /readDeviceList): a card's
 * lifecycle (bind, report lost, replace, cancel and reclaim), money at the desk with the card
 * image to write after the change commits (write after commit), the confirmation of each card
 * write, and the card readers the desks used. Every changing call carries a client-made
 * `idempotencyKey`, reused on retries: the same id answers the first call's result again.
 */
const CARD_PATH = `${BILLING_PATH}/card`;
export const CARD_CALLS = {
  deskCard: `${CARD_PATH}/queryDeskCard`,
  bind: `${CARD_PATH}/bindCard`,
  reportLost: `${CARD_PATH}/reportLostCard`,
  replace: `${CARD_PATH}/replaceCard`,
  reclaim: `${CARD_PATH}/reclaimCard`,
  recharge: `${CARD_PATH}/rechargeCard`,
  refund: `${CARD_PATH}/refundCard`,
  confirmWrite: `${CARD_PATH}/confirmCardWrite`,
  reverseWrite: `${CARD_PATH}/reverseCardWrite`,
  writes: `${CARD_PATH}/queryCardWrite`,
  readers: `${CARD_PATH}/queryDeskReader`,
} as const;

/** Most fen one desk recharge takes (100,000 yuan): a typo of three zeros is refused. */
export const DESK_AMOUNT_MAX_FEN = 10_000_000;
/** Most fen a card's purse holds (a signed 32-bit number, card-layout.ts in the card reader). */
export const CARD_PURSE_MAX_FEN = 0x7fffffff;
/** Where a card write stands: the server's side of write after commit. */
export const CARD_WRITE_STATES = ['pending', 'written', 'failed', 'superseded'] as const;
export type CardWriteState = (typeof CARD_WRITE_STATES)[number];
/** What changed the balance a card write carries. */
export const CARD_WRITE_REASONS = ['recharge', 'refund', 'replace'] as const;
export type CardWriteReason = (typeof CARD_WRITE_REASONS)[number];
export const PAYMENT_METHODS = ['cash', 'online'] as const;

const invalid = { error: 'validation.invalid' };
const required = { error: 'validation.required' };
const cardNo = z
  .string(required)
  .trim()
  .min(1, required)
  .regex(new RegExp(CARD_NO_PATTERN.source), { error: CARD_NO_PATTERN.key })
  .transform((value) => value.toUpperCase());
/** A client-made key (a UUID or similar), the same on every retry of one operation. */
const idempotencyKey = z
  .string(required)
  .min(8, invalid)
  .max(100, invalid)
  .regex(/^[A-Za-z0-9_.:-]+$/, { error: 'validation.idempotencyKey' });
const fen = z.number(invalid).int(invalid).min(1, invalid).max(DESK_AMOUNT_MAX_FEN, invalid);
const sequence = z.number(invalid).int(invalid).min(0, invalid).max(0xffffffff, invalid);

/** The reader a desk operation went through, as the console's card-reading service reports it. */
export const deskReaderSchema = z.object({
  serial: z.string(invalid).trim().min(1, invalid).max(128, invalid),
  backend: z.enum(['simulated', 'pcsc'], invalid),
});
export type DeskReader = z.infer<typeof deskReaderSchema>;

/** GET queryDeskCard?cardNo=: a card as the desk sees it (state, household, money, writes). */
export const deskCardQuerySchema = z.object({
  cardNo,
  readerSerial: z.string().max(128).optional(),
  readerBackend: z.enum(['simulated', 'pcsc']).optional(),
});

export const bindCardSchema = z.object({
  idempotencyKey,
  cardNo,
  householdId: id,
  reader: deskReaderSchema.optional(),
});
export type BindCardInput = z.input<typeof bindCardSchema>;

export const reportLostCardSchema = z.object({
  idempotencyKey,
  cardNo,
  remark: z.string().max(500, invalid).optional(),
  reader: deskReaderSchema.optional(),
});
export type ReportLostCardInput = z.input<typeof reportLostCardSchema>;

/** A new registered user card takes the lost one's household and the balance the ledger says. */
export const replaceCardSchema = z.object({
  idempotencyKey,
  lostCardNo: cardNo,
  newCardNo: cardNo,
  /** The new card's sequence as read (0 on a card issued just now). */
  cardSequence: sequence.default(0),
  reader: deskReaderSchema.optional(),
});
export type ReplaceCardInput = z.input<typeof replaceCardSchema>;

export const reclaimCardSchema = z.object({
  idempotencyKey,
  cardNo,
  reader: deskReaderSchema.optional(),
});
export type ReclaimCardInput = z.input<typeof reclaimCardSchema>;

export const rechargeCardSchema = z
  .object({
    idempotencyKey,
    cardNo,
    amountFen: fen,
    method: z.enum(PAYMENT_METHODS, invalid),
    externalRef: z.string(invalid).trim().max(128, invalid).optional(),
    /** The card's write sequence as read before the recharge: the write compares it. */
    cardSequence: sequence,
    reader: deskReaderSchema.optional(),
  })
  .superRefine((body, context) => {
    if (body.method === 'online' && !body.externalRef)
      context.addIssue({ code: 'custom', path: ['externalRef'], message: 'validation.required' });
  });
export type RechargeCardInput = z.input<typeof rechargeCardSchema>;

export const refundCardSchema = z.object({
  idempotencyKey,
  cardNo,
  amountFen: fen,
  cardSequence: sequence,
  reader: deskReaderSchema.optional(),
});
export type RefundCardInput = z.input<typeof refundCardSchema>;

/**
 * The desk's report on one write: written (the card holds the image), failed (this attempt did
 * not; the write stays pending and is tried again; with the sequence the card holds now, its image
 * is made again from the ledger's balance) or abandoned (the cashier gave up: failed, offered for
 * reversal, and still retried when the card is next read).
 */
export const CARD_WRITE_OUTCOMES = ['written', 'failed', 'abandoned'] as const;
export const confirmCardWriteSchema = z.object({
  writeId: id,
  outcome: z.enum(CARD_WRITE_OUTCOMES, invalid),
  /** The reader's answer when it failed (STALE_SEQUENCE, NO_CARD...), kept for the desk. */
  problem: z.string().max(200, invalid).optional(),
  /** The card's sequence now (STALE_SEQUENCE: a controller wrote it since). */
  cardSequence: sequence.optional(),
  reader: deskReaderSchema.optional(),
});
export type ConfirmCardWriteInput = z.input<typeof confirmCardWriteSchema>;

/** The cashier gives up on a write: its ledger transaction is reversed (at most once). */
export const reverseCardWriteSchema = z.object({ idempotencyKey, writeId: id });
export type ReverseCardWriteInput = z.input<typeof reverseCardWriteSchema>;

export const cardWriteQuerySchema = z.object({
  state: z.enum(CARD_WRITE_STATES).optional(),
  cardNo: cardNo.optional(),
});

/** What the card must hold after a change: written with compare-and-write on sequence - 1. */
export const cardImageSchema = z.object({
  cardNo: z.string(),
  balanceFen: z.number(),
  sequence: z.number(),
});
export type CardImage = z.infer<typeof cardImageSchema>;

export const cardWriteSchema = z.object({
  id: z.string(),
  cardId: z.string(),
  cardNo: z.string(),
  householdId: z.string().nullable(),
  householdName: z.string().nullable(),
  reason: z.enum(CARD_WRITE_REASONS),
  txnId: z.string().nullable(),
  amountFen: z.number().nullable(),
  image: cardImageSchema,
  state: z.enum(CARD_WRITE_STATES),
  attempts: z.number(),
  problem: z.string().nullable(),
  reversalTxnId: z.string().nullable(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  updatedAt: z.string(),
});
export type CardWrite = z.infer<typeof cardWriteSchema>;

const balanceSchema = z.object({ availableFen: z.number(), heldFen: z.number() });

/** The desk's view of one card. */
export const deskCardSchema = z.object({
  card: z.object({
    id: z.string(),
    cardNo: z.string(),
    cardType: z.string(),
    cardState: z.string(),
    householdId: z.string().nullable(),
    replacesCardNo: z.string().nullable(),
    replacedByCardNo: z.string().nullable(),
  }),
  household: z
    .object({
      id: z.string(),
      householdName: z.string(),
      idNumberMasked: z.string().nullable(),
      phone: z.string().nullable(),
      village: z.string().nullable(),
    })
    .nullable(),
  /** The household's money (null without one). */
  balance: balanceSchema.nullable(),
  /** The household's yearly water right, when the pricing module knows it (m³). */
  quota: z
    .object({ year: z.number(), quotaM3: z.number(), usedM3: z.number(), remainingM3: z.number() })
    .nullable(),
  /** Writes of this card not yet on it, newest first: the desk retries the newest. */
  pendingWrites: z.array(cardWriteSchema),
});
export type DeskCard = z.infer<typeof deskCardSchema>;

/** The answer of a lifecycle or money call: the card now, and the write it needs (if any). */
export const deskResultSchema = z.object({
  cardNo: z.string(),
  cardState: z.string(),
  txnId: z.string().nullable(),
  /** The fen a reclaim refunded (what was available), else the amount posted. */
  amountFen: z.number().nullable(),
  balance: balanceSchema.nullable(),
  write: cardWriteSchema.nullable(),
  replayed: z.boolean(),
});
export type DeskResult = z.infer<typeof deskResultSchema>;

/** One card reader a desk used: by whom, with which backend, last seen. */
export const deskReaderRowSchema = z.object({
  serial: z.string(),
  backend: z.string(),
  userId: z.string(),
  username: z.string(),
  lastOperation: z.string(),
  operations: z.number(),
  firstSeenAt: z.string(),
  lastSeenAt: z.string(),
});
export type DeskReaderRow = z.infer<typeof deskReaderRowSchema>;
