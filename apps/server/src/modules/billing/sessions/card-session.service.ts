import {
  AUTHORIZE_SESSION_COMMAND,
  CARD_SWIPE_EVENT,
  cardSwipeParamsSchema,
  REJECT_CARD_COMMAND,
  SESSION_END_EVENT,
  type AuthorizeSessionParams,
  type CardRejectReason,
  type RejectCardParams,
} from '@shuili/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Sql } from '../../../db/database';
import { AppError } from '../../../http/app-error';
import type { AlarmService } from '../../iot/alarm/alarm.service';
import type { CommandService } from '../../iot/command/command.service';
import type {
  DeviceAckMessage,
  DeviceEventMessage,
  DevicePresenceMessage,
  DeviceRef,
  IngestListener,
} from '../../iot/telemetry/ingest-listener';
import { cancelPrefix, scheduleOnce } from '../../scheduler/scheduler.service';
import type { LedgerService } from '../ledger/ledger.service';
import type { BlacklistSync } from './blacklist-sync';
import { retried } from './session-retry';
import { SessionRecords } from './session-records';
import { raiseSessionAlarms, type SessionAlarmRaise } from './session-alarms';
import { cardOf, refusalOf } from './session-cards';
import { PricingError } from './session-pricing';
import type { SessionPricing, WellTerms } from './session-pricing.types';
import { sessionRepo, type SessionEnd, type SessionRow } from './session.repo';

/** The scheduler kind of a session's checks (session-check.processor.ts). */
export const SESSION_CHECK = 'billing.sessionCheck';
/** The operator of the server's own controller commands in the operation records. */
export const SESSION_OPERATOR = 'card billing';

export interface CardSessionOptions {
  /** The most one swipe reserves (fen): the household's available balance up to this. */
  creditCapFen?: number;
  /** How long an authorizeSession may wait for its controller before it expires (s). */
  authorizeExpirySeconds?: number;
  /** When, after the swipe, a session whose authorization did not succeed is voided (ms). */
  authorizeCheckMs?: number;
  /** A session with no end for this long after its swipe is voided (ms). */
  maxSessionMs?: number;
  /** Below this available balance at a swipe (fen), a low-balance alarm (sys_param wins). */
  lowBalanceFen?: number;
}

const DEFAULTS: Required<CardSessionOptions> = {
  creditCapFen: 100_000,
  authorizeExpirySeconds: 60,
  authorizeCheckMs: 120_000,
  maxSessionMs: 24 * 3_600_000,
  lowBalanceFen: 2_000,
};

export interface CardSessionDeps {
  db: Database;
  ledger: LedgerService;
  commands: CommandService;
  alarms: AlarmService;
  pricing: SessionPricing;
  blacklist: BlacklistSync;
  log: FastifyBaseLogger;
}

/** What a swipe decided inside its transaction, done after it committed. */
type SwipeOutcome =
  | { kind: 'ignored' }
  | { kind: 'reject'; reason: CardRejectReason; availableFen?: number; lowBalanceFen?: number }
  | {
      kind: 'authorize';
      sessionId: string;
      params: AuthorizeSessionParams;
      availableFen: number;
      lowBalanceFen: number;
    };

/**
 * The card controllers' sessions, exactly once (issue 20 item 5, docs/card-billing.md). Listens
 * to the IoT engine's ingestion like the alarms and commands do: a `cardSwipe` is checked and,
 * for a good card, reserved in the ledger (hold) and authorized; a `sessionEnd` record is
 * posted once per (controller, recordNo): it settles its session's hold, or is consumed when
 * it was run offline or came after its hold was voided. Everything about money happens inside
 * one transaction with the ledger's entries; commands and alarms go out after it committed.
 * An event handler that throws makes the device send the event again (QoS 1), which the keys
 * make harmless.
 */
export class CardSessionService implements IngestListener {
  private readonly options: Required<CardSessionOptions>;
  private readonly records: SessionRecords;

  constructor(
    private readonly deps: CardSessionDeps,
    options: CardSessionOptions = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.records = new SessionRecords(deps);
  }

  async onEvent(event: DeviceEventMessage): Promise<void> {
    switch (event.key) {
      case CARD_SWIPE_EVENT:
        await this.swipe(event);
        break;
      case SESSION_END_EVENT:
        await this.alarm(event.device, await this.records.post(event));
        break;
      case 'tamper':
        await this.alarm(event.device, [
          { alarm: 'tamper', value: null, threshold: null, at: event.ts },
        ]);
        return;
      case 'lowBalance':
        // The controller's own word about the card on it (its written balance running low).
        await this.alarm(event.device, [
          { alarm: 'lowBalance', value: null, threshold: null, at: event.ts },
        ]);
        return;
      case 'invalidCard':
        // The controller's own refusal (a card it cannot read, one on its blacklist).
        await this.alarm(event.device, [
          { alarm: 'invalidCard', value: null, threshold: null, at: event.ts },
        ]);
        return;
      default:
        return;
    }
    await this.deps.blacklist.ensure(event.device.tenantId, event.device.deviceId);
  }

  /** A controller refusing an authorization: its hold goes back at once. */
  async onAck({ device, ack }: DeviceAckMessage): Promise<void> {
    if (!/^\d{1,18}$/.test(ack.id)) return;
    await this.deps.blacklist.afterAck(device.tenantId, device.deviceId, ack.id);
    if (ack.ok) return;
    await retried(() =>
      this.deps.db.tenant(device.tenantId, async (sql) => {
        const session = await sessionRepo.byAuthorizeCommand(sql, ack.id);
        if (session?.state === 'open')
          await this.voidIn(sql, device.tenantId, session.id, 'refusedByController');
      }),
    );
  }

  /** A controller back on the network gets the blacklist if it changed meanwhile. */
  async onPresence(presence: DevicePresenceMessage): Promise<void> {
    if (!presence.online) return;
    await this.deps.blacklist.ensure(presence.device.tenantId, presence.device.deviceId);
  }

  /** Voids an open session's hold (a timeout, a refusal); false when it was not open. */
  async voidIn(sql: Sql, tenantId: string, sessionId: string, problem: string): Promise<boolean> {
    const session = await sessionRepo.lockSession(sql, sessionId);
    if (!session || session.state !== 'open') return false;
    const voided = session.hold_txn_id
      ? await this.deps.ledger.voidHold(sql, {
          tenantId,
          idempotencyKey: `session:${session.id}:void`,
          holdTxnId: session.hold_txn_id,
          ...this.refs(session),
        })
      : undefined;
    await sessionRepo.end(sql, session.id, 'open', {
      ...EMPTY_END,
      state: 'voided',
      settleTxnId: voided?.txnId ?? null,
      problem,
    });
    await cancelPrefix(sql, `billing-session:${session.id}:`);
    return true;
  }

  private refs(session: SessionRow) {
    return { cardId: session.card_id, deviceId: session.device_id, sessionId: session.id };
  }

  private async swipe(event: DeviceEventMessage): Promise<void> {
    const { device } = event;
    const parsed = cardSwipeParamsSchema.safeParse(event.params);
    if (!parsed.success) {
      this.deps.log.warn({ device: device.deviceNo, params: event.params }, 'bad cardSwipe');
      return;
    }
    const cardNo = parsed.data.cardNo;
    const outcome = await retried(() =>
      this.deps.db.tenant(device.tenantId, (sql) =>
        this.decideSwipe(sql, device, cardNo, event.ts),
      ),
    );
    if (outcome.kind === 'ignored') return;
    if (outcome.kind === 'reject') {
      await this.send(device, REJECT_CARD_COMMAND, {
        cardNo,
        reason: outcome.reason,
      } satisfies RejectCardParams);
      const alarms: Array<Omit<SessionAlarmRaise, 'tenantId' | 'tenantCode' | 'deviceId'>> = [];
      if (outcome.reason === 'noBalance')
        alarms.push(
          lowBalanceAlarm(outcome.availableFen ?? 0, outcome.lowBalanceFen ?? 0, event.ts),
        );
      else if (outcome.reason !== 'busy')
        alarms.push({ alarm: 'invalidCard', value: null, threshold: null, at: event.ts });
      await this.alarm(device, alarms);
      // A lost card met at one controller: every other one learns of it now, or when back.
      if (outcome.reason === 'lost' || outcome.reason === 'cancelled')
        await this.deps.blacklist.pushAll(device.tenantId);
      return;
    }
    const command = await this.send(
      device,
      AUTHORIZE_SESSION_COMMAND,
      outcome.params,
      this.options.authorizeExpirySeconds,
    );
    // Recorded with the session (sessions.module.ts onRecorded); not even recorded (another
    // authorization under way at the controller): the hold goes back now.
    if (!command)
      await retried(() =>
        this.deps.db.tenant(device.tenantId, (sql) =>
          this.voidIn(sql, device.tenantId, outcome.sessionId, 'authorizeNotSent'),
        ),
      );
    if (outcome.availableFen < outcome.lowBalanceFen)
      await this.alarm(device, [
        lowBalanceAlarm(outcome.availableFen, outcome.lowBalanceFen, event.ts),
      ]);
  }

  private async decideSwipe(
    sql: Sql,
    device: DeviceRef,
    cardNo: string,
    at: Date,
  ): Promise<SwipeOutcome> {
    if (!(await sessionRepo.isController(sql, device.deviceId))) return { kind: 'ignored' };
    await sessionRepo.lockWell(sql, device.deviceId);
    const card = await cardOf(sql, cardNo);
    const refusal = refusalOf(card);
    if (refusal || !card?.householdId) return { kind: 'reject', reason: refusal ?? 'notBound' };
    // A swipe the controller stamped is known by its card and time: a copy of it delivered again
    // (a resend, an external broker's second copy), even after its session ended, is no swipe.
    if (await sessionRepo.swipeSeen(sql, device.deviceId, card.cardNo, at))
      return { kind: 'ignored' };
    // One card at a time per well: another card while a session runs is refused; the same card
    // again is the same swipe delivered twice.
    const running = await sessionRepo.openOfWell(sql, device.deviceId);
    if (running)
      return running.card_no === card.cardNo
        ? { kind: 'ignored' }
        : { kind: 'reject', reason: 'busy' };
    const { tenantId } = device;
    const householdId = card.householdId;
    const lowBalanceFen = await this.lowBalanceFen(sql);
    const { availableFen } = await this.deps.ledger.householdBalance(sql, tenantId, householdId);
    const creditFen = Math.min(availableFen, this.options.creditCapFen);
    if (creditFen <= 0) return { kind: 'reject', reason: 'noBalance', availableFen, lowBalanceFen };
    let terms: WellTerms;
    try {
      terms = await this.deps.pricing.termsAt(sql, {
        tenantId,
        deviceId: device.deviceId,
        householdId,
        at,
      });
    } catch (error) {
      if (error instanceof PricingError) return { kind: 'reject', reason: 'wellNotPriced' };
      throw error;
    }
    const sessionId = await sessionRepo.insertOpen(sql, {
      tenantId,
      deviceId: device.deviceId,
      deviceNo: device.deviceNo,
      cardId: card.cardId,
      cardNo: card.cardNo,
      householdId,
      swipedAt: at,
      creditFen,
      billingMode: terms.billingMode,
      unitPriceFen: terms.unitPriceFen,
      m3PerKwh: terms.m3PerKwh,
    });
    const hold = await this.deps.ledger.hold(sql, {
      tenantId,
      idempotencyKey: `session:${sessionId}:hold`,
      householdId,
      amountFen: creditFen,
      cardId: card.cardId,
      deviceId: device.deviceId,
      sessionId,
    });
    await sessionRepo.setHold(sql, sessionId, hold.txnId);
    // On the scheduler (DESIGN §6a): the check survives a restart and runs on one node.
    await scheduleOnce(sql, {
      tenantId,
      kind: SESSION_CHECK,
      key: `billing-session:${sessionId}:authorize`,
      dueAt: new Date(Date.now() + this.options.authorizeCheckMs),
      payload: { sessionId, stage: 'authorize' },
    });
    return {
      kind: 'authorize',
      sessionId,
      availableFen,
      lowBalanceFen,
      params: {
        sessionId,
        cardNo: card.cardNo,
        creditFen,
        billingMode: terms.billingMode,
        unitPriceFen: terms.unitPriceFen,
        m3PerKwh: terms.m3PerKwh ?? 0,
      },
    };
  }

  /** The tenant's low-balance line: sys_param billing.lowBalance (yuan), else the option. */
  private async lowBalanceFen(sql: Sql): Promise<number> {
    const { rows } = await sql.query<{ param_value: string }>(
      `SELECT param_value FROM sys_param WHERE param_key = 'billing.lowBalance' LIMIT 1`,
    );
    const yuan = Number(rows[0]?.param_value);
    return Number.isFinite(yuan) && yuan >= 0 ? Math.round(yuan * 100) : this.options.lowBalanceFen;
  }

  /** Sends a controller the server's command; answers its id, or none when it was refused. */
  private async send(
    device: DeviceRef,
    name: string,
    params: object,
    expiresInSeconds = 60,
  ): Promise<string | undefined> {
    try {
      const view = await this.deps.commands.sendAsServer({
        tenantId: device.tenantId,
        deviceId: device.deviceId,
        name,
        params: params as Record<string, unknown>,
        expiresInSeconds,
        username: SESSION_OPERATOR,
      });
      return view.id;
    } catch (error) {
      // Another of the same under way, or a product edited without the command: logged.
      if (!(error instanceof AppError)) throw error;
      this.deps.log.warn(
        { err: error, device: device.deviceNo, name },
        'card session command not sent',
      );
      return undefined;
    }
  }

  private alarm(
    device: DeviceRef,
    alarms: ReadonlyArray<Omit<SessionAlarmRaise, 'tenantId' | 'tenantCode' | 'deviceId'>>,
  ): Promise<void> {
    if (alarms.length === 0) return Promise.resolve();
    return raiseSessionAlarms(
      this.deps,
      alarms.map((one) => ({
        ...one,
        tenantId: device.tenantId,
        tenantCode: device.tenantCode,
        deviceId: device.deviceId,
      })),
    );
  }
}

function lowBalanceAlarm(availableFen: number, lineFen: number, at: Date) {
  return { alarm: 'lowBalance' as const, value: availableFen / 100, threshold: lineFen / 100, at };
}

/** An end with nothing measured (a voided session). */
const EMPTY_END: SessionEnd = {
  state: 'voided',
  recordNo: null,
  startedAt: null,
  endedAt: null,
  kwhStart: null,
  kwhEnd: null,
  m3Start: null,
  m3End: null,
  volumeM3: null,
  energyKwh: null,
  durationSeconds: null,
  billingMode: null,
  unitPriceFen: null,
  m3PerKwh: null,
  amountFen: null,
  controllerAmountFen: null,
  tierParts: null,
  endReason: null,
  settleTxnId: null,
  late: false,
  lostCard: false,
  problem: null,
};
