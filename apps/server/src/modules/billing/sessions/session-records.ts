import { sessionEndParamsSchema, type SessionEndParams } from '@shuili/contract';
import type { Database, Sql } from '../../../db/database';
import type { DeviceEventMessage, DeviceRef } from '../../iot/telemetry/ingest-listener';
import { cancelPrefix } from '../../scheduler/scheduler.service';
import type { LedgerService } from '../ledger/ledger.service';
import type { SessionAlarmRaise } from './session-alarms';
import { cardOf, reportedLost } from './session-cards';
import { PricingError } from './session-pricing';
import type { PricedSession, SessionPricing } from './session-pricing.types';
import { retried } from './session-retry';
import { sessionRepo, type SessionEnd, type UploadStatus } from './session.repo';

/** An alarm a record raises, for its controller. */
export type RecordAlarm = Omit<SessionAlarmRaise, 'tenantId' | 'tenantCode' | 'deviceId'>;

/** What a record decided, done after it committed. */
interface RecordOutcome {
  status: UploadStatus;
  sessionId: string | null;
  alarms: RecordAlarm[];
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;

/**
 * The controllers' records (`sessionEnd`), posted exactly once (docs/card-billing.md): keyed by
 * (controller, recordNo), every upload kept with its outcome. A record of an open session settles
 * its hold at the tiered price; one run offline, or whose hold was voided meanwhile, is charged
 * on its own (a consumption, late); the same key again is a duplicate, with another amount or
 * card a conflict (refused, raised).
 */
export class SessionRecords {
  constructor(
    private readonly deps: { db: Database; ledger: LedgerService; pricing: SessionPricing },
  ) {}

  /**
   * Posts a valid record inside the caller's transaction (the demo's history, written in the
   * seed's transaction, goes through the same decisions as a controller's upload); answers its
   * outcome.
   */
  static async postWithin(
    sql: Sql,
    deps: { ledger: LedgerService; pricing: SessionPricing },
    event: DeviceEventMessage,
  ): Promise<UploadStatus> {
    const record = sessionEndParamsSchema.parse(event.params);
    return (await decideRecord(sql, deps, event.device, record, event)).status;
  }

  /**
   * Posts one upload of a record (its own transaction, retried when it lost a race); answers the
   * alarms to raise once it committed.
   */
  async post(event: DeviceEventMessage): Promise<RecordAlarm[]> {
    const { device } = event;
    const parsed = sessionEndParamsSchema.safeParse(event.params);
    if (!parsed.success) {
      const path = parsed.error.issues[0]?.path.join('.') || '(root)';
      const recordNo = Number(event.params['recordNo']);
      await this.deps.db.tenant(device.tenantId, (sql) =>
        sessionRepo.insertUpload(sql, {
          tenantId: device.tenantId,
          deviceId: device.deviceId,
          deviceNo: device.deviceNo,
          recordNo:
            Number.isInteger(recordNo) && recordNo > 0 && recordNo < 2 ** 31 ? recordNo : null,
          sessionId: null,
          cardNo:
            typeof event.params['cardNo'] === 'string' ? event.params['cardNo'].slice(0, 64) : null,
          amountFen: null,
          status: 'refused',
          message: `badRecord: ${path}`,
          payload: event.params,
          receivedAt: event.ts,
        }),
      );
      return [];
    }
    const outcome = await retried(() =>
      this.deps.db.tenant(device.tenantId, (sql) =>
        decideRecord(sql, this.deps, device, parsed.data, event),
      ),
    );
    return outcome.alarms;
  }
}

/** A record's decisions (docs/card-billing.md), in the caller's transaction. */
async function decideRecord(
  sql: Sql,
  deps: { ledger: LedgerService; pricing: SessionPricing },
  device: DeviceRef,
  record: SessionEndParams,
  event: DeviceEventMessage,
): Promise<RecordOutcome> {
  const { tenantId, deviceId } = device;
  await sessionRepo.lockRecord(sql, deviceId, record.recordNo);
  const upload = (status: UploadStatus, sessionId: string | null, message: string | null) =>
    sessionRepo.insertUpload(sql, {
      tenantId,
      deviceId,
      deviceNo: device.deviceNo,
      recordNo: record.recordNo,
      sessionId,
      cardNo: record.cardNo,
      amountFen: record.amountFen,
      status,
      message,
      payload: event.params,
      receivedAt: event.ts,
    });
  const conflict = async (sessionId: string, message: string, earlierFen: number | null) => {
    await upload('conflict', sessionId, message);
    return {
      status: 'conflict' as const,
      sessionId,
      alarms: [
        {
          alarm: 'recordConflict' as const,
          value: record.amountFen / 100,
          threshold: earlierFen === null ? null : earlierFen / 100,
          at: event.ts,
        },
      ],
    };
  };

  // The key: the same record again posts nothing; the same key saying otherwise is refused.
  const earlier = await sessionRepo.byRecord(sql, deviceId, record.recordNo);
  if (earlier) {
    const same =
      earlier.controller_amount_fen === record.amountFen &&
      earlier.card_no.toUpperCase() === record.cardNo.toUpperCase() &&
      (record.sessionId === undefined || record.sessionId === earlier.id);
    if (!same) return conflict(earlier.id, 'sameKeyOtherRecord', earlier.controller_amount_fen);
    await upload('duplicate', earlier.id, null);
    return { status: 'duplicate', sessionId: earlier.id, alarms: [] };
  }

  const card = await cardOf(sql, record.cardNo);
  let session = record.sessionId ? await sessionRepo.lockSession(sql, record.sessionId) : undefined;
  // A session id of another well, or one this controller's record does not match, is no key
  // to money: the record stands on its own (late), flagged.
  let problem: string | null = null;
  if (record.sessionId && (!session || session.device_id !== deviceId)) {
    problem = 'unknownSession';
    session = undefined;
  }
  if (session && session.card_no.toUpperCase() !== record.cardNo.toUpperCase())
    return conflict(session.id, 'otherCard', session.controller_amount_fen);
  if (session && session.record_no !== null)
    return conflict(session.id, 'sessionEndedByOtherRecord', session.controller_amount_fen);

  const householdId = session?.household_id ?? card?.householdId ?? null;
  if (!householdId) {
    await upload('refused', null, 'unknownCard');
    return {
      status: 'refused',
      sessionId: null,
      alarms: [{ alarm: 'invalidCard', value: null, threshold: null, at: event.ts }],
    };
  }
  const startedAt = new Date(record.startedAt);
  let priced: PricedSession;
  try {
    priced = await deps.pricing.price(sql, {
      tenantId,
      deviceId,
      householdId,
      startedAt,
      endedAt: new Date(record.endedAt),
      kwhStart: record.kwhStart,
      kwhEnd: record.kwhEnd,
      m3Start: record.m3Start,
      m3End: record.m3End,
    });
  } catch (error) {
    // The well's price is missing: nothing posted, the key stays free for the record to come
    // again once the well is priced (an open session's hold is voided by its check meanwhile).
    if (!(error instanceof PricingError)) throw error;
    await upload('refused', session?.id ?? null, `wellNotPriced: ${error.reason}`);
    return { status: 'refused', sessionId: session?.id ?? null, alarms: [] };
  }
  const end: SessionEnd = {
    state: 'settled',
    recordNo: record.recordNo,
    startedAt,
    endedAt: new Date(record.endedAt),
    kwhStart: record.kwhStart,
    kwhEnd: record.kwhEnd,
    m3Start: record.m3Start,
    m3End: record.m3End,
    volumeM3: round3(priced.volumeM3),
    energyKwh: round3(priced.energyKwh),
    durationSeconds: priced.durationSeconds,
    billingMode: priced.billingMode,
    unitPriceFen: priced.unitPriceFen,
    m3PerKwh: priced.m3PerKwh,
    amountFen: priced.amountFen,
    controllerAmountFen: record.amountFen,
    tierParts: priced.tierParts,
    endReason: record.endReason,
    settleTxnId: null,
    late: false,
    lostCard: false,
    problem,
  };

  if (session?.state === 'open' && session.hold_txn_id) {
    const settled = await deps.ledger.settle(sql, {
      tenantId,
      idempotencyKey: `session:${session.id}:settle`,
      holdTxnId: session.hold_txn_id,
      amountFen: priced.amountFen,
      // The water was drawn: what the balance cannot cover becomes arrears, never a refusal.
      allowArrears: true,
      cardId: session.card_id,
      deviceId: session.device_id,
      sessionId: session.id,
    });
    await sessionRepo.end(sql, session.id, 'open', { ...end, settleTxnId: settled.txnId });
    await cancelPrefix(sql, `billing-session:${session.id}:`);
    await upload('posted', session.id, null);
    return { status: 'posted', sessionId: session.id, alarms: [] };
  }

  // Run offline, or its hold voided before the record came: charged on its own, once.
  const late: SessionEnd = {
    ...end,
    state: 'consumed',
    late: true,
    lostCard: reportedLost(card),
  };
  const sessionId =
    session?.id ??
    (await sessionRepo.insertRecorded(
      sql,
      {
        tenantId,
        deviceId,
        deviceNo: device.deviceNo,
        cardId: card?.cardId ?? null,
        cardNo: card?.cardNo ?? record.cardNo,
        householdId,
      },
      { ...late, state: 'consumed' },
    ));
  const consumed =
    priced.amountFen > 0
      ? await deps.ledger.consume(sql, {
          tenantId,
          idempotencyKey: `record:${deviceId}:${record.recordNo}`,
          householdId,
          amountFen: priced.amountFen,
          allowArrears: true,
          cardId: card?.cardId ?? session?.card_id ?? null,
          deviceId,
          sessionId,
        })
      : undefined;
  if (session)
    await sessionRepo.end(sql, session.id, session.state, {
      ...late,
      settleTxnId: consumed?.txnId ?? null,
    });
  else if (consumed) await sessionRepo.setSettleTxn(sql, sessionId, consumed.txnId);
  await upload('posted', sessionId, null);
  return { status: 'posted', sessionId, alarms: [] };
}
