import { z } from 'zod';
import { label, type Label } from '../entity-kit/label';
import type { ThingCommand, ThingEvent, ThingParam } from '../iot/thing-model';

/**
 * What a well's card controller and the server say to each other about a card session
 * (docs/card-billing.md). The controller is an IoT device of the `card_controller` kind: these are
 * events and commands of its thing model, carried by the IoT engine like any other.
 *
 * - up `cardSwipe {cardNo, cardBalanceFen, cardSequence}`: a card was put on the reader;
 * - down `authorizeSession {sessionId, cardNo, creditFen, billingMode, unitPriceFen,
 *   m3PerKwh}`: run the pump for this card until `creditFen` is spent (at the unit price) or the
 *   card is taken off; or `rejectCard {cardNo, reason}`;
 * - up `sessionEnd {recordNo, sessionId?, cardNo, startedAt, endedAt, kwhStart, kwhEnd, m3Start,
 *   m3End, endReason, amountFen}`: the controller's record of a session, numbered by the
 *   controller (`recordNo`, the key of the record with the controller). A session run while the
 *   controller was offline (on the card's own balance) has no `sessionId` and comes when the
 *   controller is back, maybe more than once;
 * - down `syncBlacklist {cardNos}`: the cards no controller may run (lost, cancelled), so an
 *   offline controller refuses them too.
 */

export const CARD_SWIPE_EVENT = 'cardSwipe';
export const SESSION_END_EVENT = 'sessionEnd';
export const AUTHORIZE_SESSION_COMMAND = 'authorizeSession';
export const REJECT_CARD_COMMAND = 'rejectCard';
export const SYNC_BLACKLIST_COMMAND = 'syncBlacklist';

/** How the water of a well is charged (the well's setting; H3's pricing names the same). */
export const CONTROLLER_BILLING_MODES = ['kwh', 'm3', 'time', 'energyToWater'] as const;
export type ControllerBillingMode = (typeof CONTROLLER_BILLING_MODES)[number];

/** Why a session ended, as the controller reports it. */
export const SESSION_END_REASONS = [
  'cardRemoved',
  'balanceExhausted',
  'noPulse',
  'manual',
] as const;
export type SessionEndReason = (typeof SESSION_END_REASONS)[number];

/** Why the server refused a card at a controller. */
export const CARD_REJECT_REASONS = [
  'unknown',
  'lost',
  'cancelled',
  'notBound',
  'householdDisabled',
  'noBalance',
  'busy',
  /** The well has no price for its billing mode (no coefficient, no kWh or hourly price). */
  'wellNotPriced',
] as const;
export type CardRejectReason = (typeof CARD_REJECT_REASONS)[number];

/** A card number as cards carry it (digits and letters, the card's printed number). */
const cardNoSchema = z.string().trim().min(1).max(32);
const fenSchema = z.number().int().min(0).max(1_000_000_000);
const msSchema = z.number().int().min(0).max(8_640_000_000_000);
const meterSchema = z.number().min(0).max(1e9);

export const cardSwipeParamsSchema = z.object({
  cardNo: cardNoSchema,
  /** The balance written on the card (the controller reads it; the ledger is the truth). */
  cardBalanceFen: fenSchema.optional(),
  /** How many times the card was written: a copy of an old card shows an old sequence. */
  cardSequence: z.number().int().min(0).max(2_147_483_647).optional(),
});
export type CardSwipeParams = z.infer<typeof cardSwipeParamsSchema>;

export const sessionEndParamsSchema = z
  .object({
    recordNo: z.number().int().min(1).max(2_147_483_647),
    /** The server's session id of authorizeSession; absent for a session run offline. */
    sessionId: z
      .string()
      .regex(/^\d{1,18}$/)
      .optional(),
    cardNo: cardNoSchema,
    startedAt: msSchema,
    endedAt: msSchema,
    kwhStart: meterSchema,
    kwhEnd: meterSchema,
    m3Start: meterSchema,
    m3End: meterSchema,
    endReason: z.enum(SESSION_END_REASONS),
    /** What the controller charged (took off the card, or counted against the credit). */
    amountFen: fenSchema,
  })
  .refine((record) => record.endedAt >= record.startedAt, { path: ['endedAt'] })
  .refine((record) => record.kwhEnd >= record.kwhStart, { path: ['kwhEnd'] })
  .refine((record) => record.m3End >= record.m3Start, { path: ['m3End'] });
export type SessionEndParams = z.infer<typeof sessionEndParamsSchema>;

export interface AuthorizeSessionParams {
  sessionId: string;
  cardNo: string;
  creditFen: number;
  billingMode: ControllerBillingMode;
  /** Fen per unit of the mode (kWh, m³, hour; m³ for energyToWater): the base price. */
  unitPriceFen: number;
  /** m³ per kWh of the well (energyToWater), so the controller meters water from energy. */
  m3PerKwh: number;
}

export interface RejectCardParams {
  cardNo: string;
  reason: CardRejectReason;
}

/**
 * The blacklist travels as one comma-separated parameter (command parameters are scalars, and
 * required: an empty list is `-`).
 */
export function blacklistParam(cardNos: readonly string[]): string {
  return cardNos.length === 0 ? '-' : [...cardNos].sort().join(',');
}

export function parseBlacklistParam(value: unknown): string[] {
  return typeof value === 'string' && value !== '-' && value.length > 0 ? value.split(',') : [];
}

// The thing model's parts (products.ts builds the card_controller product from them).

function param(key: string, name: Label, rest: Partial<ThingParam>): ThingParam {
  return { key, name, ...rest } as ThingParam;
}

const CARD = param('cardNo', label('Card', '卡号', '卡號'), { type: 'string' });
const STRING = { type: 'string' } as const;
const FEN = (key: string, name: Label) =>
  param(key, name, { type: 'integer', min: 0, max: 1_000_000_000, unit: 'fen' });
const METER = (key: string, name: Label, unit: string) =>
  param(key, name, { type: 'number', min: 0, max: 1e9, unit, precision: 2 });
const TIME = (key: string, name: Label) =>
  param(key, name, { type: 'integer', min: 0, max: 8_640_000_000_000, unit: 'ms' });

export const CARD_CONTROLLER_EVENTS: ThingEvent[] = [
  {
    key: CARD_SWIPE_EVENT,
    name: label('Card swiped', '刷卡', '刷卡'),
    level: 'info',
    params: [
      CARD,
      FEN('cardBalanceFen', label('Card balance', '卡内余额', '卡內餘額')),
      param('cardSequence', label('Card sequence', '卡序号', '卡序號'), {
        type: 'integer',
        min: 0,
        max: 2_147_483_647,
      }),
    ],
  },
  {
    key: SESSION_END_EVENT,
    name: label('Session ended', '用水结束', '用水結束'),
    level: 'info',
    params: [
      param('recordNo', label('Record number', '记录号', '記錄號'), {
        type: 'integer',
        min: 1,
        max: 2_147_483_647,
      }),
      param('sessionId', label('Session', '会话', '會話'), STRING),
      CARD,
      TIME('startedAt', label('Started', '开始时间', '開始時間')),
      TIME('endedAt', label('Ended', '结束时间', '結束時間')),
      METER('kwhStart', label('Energy at start', '开始电量', '開始電量'), 'kWh'),
      METER('kwhEnd', label('Energy at end', '结束电量', '結束電量'), 'kWh'),
      METER('m3Start', label('Meter at start', '开始水量', '開始水量'), 'm³'),
      METER('m3End', label('Meter at end', '结束水量', '結束水量'), 'm³'),
      param('endReason', label('End reason', '结束原因', '結束原因'), STRING),
      FEN('amountFen', label('Amount', '金额', '金額')),
    ],
  },
];

export const CARD_CONTROLLER_COMMANDS: ThingCommand[] = [
  {
    key: AUTHORIZE_SESSION_COMMAND,
    name: label('Authorize session', '授权用水', '授權用水'),
    timeoutSeconds: 30,
    params: [
      param('sessionId', label('Session', '会话', '會話'), STRING),
      CARD,
      FEN('creditFen', label('Credit', '授权金额', '授權金額')),
      param('billingMode', label('Billing mode', '计费方式', '計費方式'), STRING),
      param('unitPriceFen', label('Unit price', '单价', '單價'), {
        type: 'number',
        min: 0,
        max: 1_000_000,
        unit: 'fen',
        precision: 4,
      }),
      param('m3PerKwh', label('m³ per kWh', '水电转换系数', '水電轉換係數'), {
        type: 'number',
        min: 0,
        max: 1000,
        precision: 4,
      }),
    ],
  },
  {
    key: REJECT_CARD_COMMAND,
    name: label('Reject card', '拒绝卡', '拒絕卡'),
    timeoutSeconds: 30,
    params: [CARD, param('reason', label('Reason', '原因', '原因'), STRING)],
  },
  {
    key: SYNC_BLACKLIST_COMMAND,
    name: label('Sync blacklist', '同步黑名单', '同步黑名單'),
    timeoutSeconds: 60,
    params: [
      param('cardNos', label('Blocked cards', '黑名单卡号', '黑名單卡號'), {
        type: 'string',
        maxLength: 30_000,
      }),
    ],
  },
];
