import { z } from 'zod';

/**
 * The card-reading service's protocol (README.md "Protocol"): JSON text frames over a WebSocket on
 * 127.0.0.1. The console sends requests with an id of its choosing and gets exactly one response
 * with that id; the service also pushes events (no id) when the reader or a card comes or goes.
 * Types only for the console (it imports this file with `import type`), schemas for the service.
 */

/** The port the service listens on unless told otherwise (CARD_READER_PORT on both sides). */
export const DEFAULT_CARD_READER_PORT = 17820;

/** Version of this protocol, sent in the hello event; a console can refuse a service too old. */
export const PROTOCOL_VERSION = 1;

/** Card types as the controllers know them (RESEARCH.md: user, setting, test, clearing cards). */
export const CARD_TYPES = ['user', 'setting', 'test', 'clearing'] as const;
export type CardType = (typeof CARD_TYPES)[number];

/** A card's UID as upper-case hex (4 or 7 bytes on M1 cards; 10 allowed for others). */
const uid = z
  .string()
  .regex(/^(?:[0-9A-Fa-f]{8}|[0-9A-Fa-f]{14}|[0-9A-Fa-f]{20})$/)
  .transform((value) => value.toUpperCase());
/** Balance in fen: the purse block holds a signed 32-bit number; a card never holds a debt. */
const fen = z.number().int().min(0).max(0x7fffffff);
const sequence = z.number().int().min(0).max(0xffffffff);
/** Printable ASCII, as many characters as its blocks hold (card-layout.ts TEXT_CAPACITY). */
const text = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[\x21-\x7e]+$/);
const id = z.union([z.string().min(1).max(64), z.number().int()]);

export const cardReaderRequestSchema = z.discriminatedUnion('type', [
  /** Reader and card presence; never touches the card. */
  z.object({ id, type: z.literal('status') }),
  /** The card on the reader, decoded (identity and purse). */
  z.object({ id, type: z.literal('read') }),
  /**
   * Compare-and-write of the purse: only when the card with this UID still holds
   * expectedSequence; the card then holds balanceFen with sequence expectedSequence + 1, read back
   * and verified. Sent again after a lost answer, it answers ok with alreadyWritten.
   */
  z.object({
    id,
    type: z.literal('write'),
    uid,
    expectedSequence: sequence,
    balanceFen: fen,
  }),
  /** Writes identity and purse (sequence 0) onto a blank card: registration or replacement. */
  z.object({
    id,
    type: z.literal('issue'),
    uid,
    tenantCode: text(32),
    cardNo: text(28),
    cardType: z.enum(CARD_TYPES),
    balanceFen: fen.default(0),
  }),
  /** Blanks a card (cancel and reclaim), with the same compare on the sequence as write. */
  z.object({ id, type: z.literal('erase'), uid, expectedSequence: sequence }),
  /** Simulated reader only: put the card with this UID on the reader (a new blank one if none). */
  z.object({ id, type: z.literal('simulate.place'), uid }),
  /** Simulated reader only: take the card off the reader. */
  z.object({ id, type: z.literal('simulate.remove') }),
]);
export type CardReaderRequest = z.input<typeof cardReaderRequestSchema>;
export type CardReaderRequestType = CardReaderRequest['type'];

/** Which reader the service drives. */
export type ReaderBackendName = 'simulated' | 'pcsc';

/** Answer of status (and the body of the hello and reader events). */
export interface ReaderStatus {
  backend: ReaderBackendName;
  readerPresent: boolean;
  /** The reader's name (PC/SC) or the simulated cards' folder. */
  readerName: string | null;
  /**
   * Which desk reader this is, for the server's list of desk readers (at most 128 characters):
   * the reader's name and this computer's host name.
   */
  readerSerial: string | null;
  cardPresent: boolean;
  cardUid: string | null;
  /** Why there is no reader, in English for the log (e.g. the PC/SC module is not installed). */
  problem: string | null;
}

/** Answer of read, write and issue: what the card holds now. */
export interface CardData {
  uid: string;
  /** False for a blank card: the fields below are then null, 0 and 0. */
  issued: boolean;
  cardType: CardType | null;
  tenantCode: string | null;
  cardNo: string | null;
  balanceFen: number;
  /** Counts every write of the purse (service desk and controllers alike). */
  sequence: number;
}

export interface WriteResult extends CardData {
  /** The card already held exactly this write (a retry after a lost answer): nothing written. */
  alreadyWritten: boolean;
}

export const CARD_READER_ERROR_CODES = [
  'BAD_REQUEST',
  'NO_READER',
  'NO_CARD',
  /** Another card lies on the reader than the one named. */
  'WRONG_CARD',
  /** The card's sequence is not the one expected: someone (a controller) wrote it since. */
  'STALE_SEQUENCE',
  /** A block's checksum or layout is wrong: the card is not trusted, nothing is written. */
  'CORRUPT_CARD',
  'NOT_ISSUED',
  'ALREADY_ISSUED',
  /** Written, but reading back did not give what was written (card moved during the write). */
  'VERIFY_FAILED',
  'NOT_SIMULATED',
  'READER_ERROR',
] as const;
export type CardReaderErrorCode = (typeof CARD_READER_ERROR_CODES)[number];

export interface CardReaderError {
  code: CardReaderErrorCode;
  /** English, for logs; the console words it from the code. */
  message: string;
  /** STALE_SEQUENCE: what the card holds now, so the caller can decide. */
  card?: CardData;
  /** CORRUPT_CARD: the block whose check failed. */
  block?: number;
}

export type CardReaderResponse =
  | { id: string | number; ok: true; result: unknown }
  | { id: string | number | null; ok: false; error: CardReaderError };

/** Pushed without a request: hello on connecting, then every change of reader or card. */
export type CardReaderEvent =
  | { event: 'hello'; version: number; status: ReaderStatus }
  | { event: 'reader'; status: ReaderStatus }
  | { event: 'card-placed'; uid: string; status: ReaderStatus }
  | { event: 'card-removed'; uid: string | null; status: ReaderStatus };

/** What each request answers. */
export interface CardReaderResults {
  status: ReaderStatus;
  read: CardData;
  write: WriteResult;
  issue: CardData;
  erase: CardData;
  'simulate.place': ReaderStatus;
  'simulate.remove': ReaderStatus;
}
