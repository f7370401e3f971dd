import {
  AUTHORIZE_SESSION_COMMAND,
  CARD_SWIPE_EVENT,
  parseBlacklistParam,
  REJECT_CARD_COMMAND,
  SESSION_END_EVENT,
  SYNC_BLACKLIST_COMMAND,
  type ControllerBillingMode,
  type SessionEndReason,
} from '@shuili/contract';
import type { Random } from '../random';
import {
  numberParam,
  round,
  SteppedModel,
  type CommandOutcome,
  type SimEvent,
  type SimValues,
} from './physics-model';

const FLOW = 40; // m³/h of a typical well pump
const POWER = 11; // kW
/** How long a swiped card waits for the server's answer before the controller gives up. */
const AUTHORIZE_WAIT_MS = 60_000;
/** What a card carries when the simulator first meets it (fen). */
const CARD_START_FEN = 20_000;
/** An offline session's price when the controller was never told one (fen per m³). */
const OFFLINE_PRICE_FEN = 12;
/** A record the controller ran offline is sent once more on the way back, at this chance. */
const RESEND_CHANCE = 0.3;

export interface CardControllerOptions {
  /**
   * The cards farmers swipe here (the demo's bound cards). None: the controller only meters its
   * pump, as before there was billing.
   */
  cardNos?: readonly string[];
  /** Swipes a day while the pump is idle (default 4). */
  swipesPerDay?: number;
  /** How long a farmer keeps the card on, hours: [min, max] (default half an hour to three). */
  sessionHours?: readonly [number, number];
}

interface Running {
  /** A session of no card the simulator knows (no cards given): metered, never reported. */
  anonymous?: boolean;
  sessionId: string | undefined;
  cardNo: string;
  startedAt: number;
  plannedEnd: number;
  creditFen: number;
  billingMode: ControllerBillingMode;
  unitPriceFen: number;
  m3PerKwh: number;
  kwhStart: number;
  m3Start: number;
}

/**
 * Card-swipe well controller (docs/card-billing.md). A farmer swipes a card; online, the
 * controller tells the server (cardSwipe) and runs the pump once the server authorizes the
 * session (authorizeSession, with a credit and a price) until the credit is spent or the card is
 * taken off, then reports its numbered record (sessionEnd). Offline, it runs on the balance
 * written on the card (refusing cards of its blacklist) and keeps the records, sending them
 * when it is back, now and then twice. Water and energy are metered per session and in total.
 */
export class CardControllerModel extends SteppedModel {
  private locked = false;
  private online = false;
  private waiting: { cardNo: string; until: number } | undefined;
  private running: Running | undefined;
  private recordNo = 0;
  private blacklist = new Set<string>();
  private readonly cardBalances = new Map<string, number>();
  private readonly cardSequences = new Map<string, number>();
  private readonly outbox: SimEvent[] = [];
  private readonly offlineRecords: SimEvent[] = [];
  private lastPrice = {
    billingMode: 'm3' as ControllerBillingMode,
    unitPriceFen: OFFLINE_PRICE_FEN,
    m3PerKwh: 0,
  };
  private totalVolume: number;
  private totalEnergy: number;

  constructor(
    private readonly random: Random,
    start: number,
    private readonly options: CardControllerOptions = {},
  ) {
    super(start);
    this.totalVolume = round(random.between(1000, 50000), 1);
    this.totalEnergy = round(this.totalVolume * 0.28, 1);
  }

  /** The link went up or down: offline sessions run on the card, their records wait. */
  setOnline(online: boolean): void {
    if (online && !this.online) {
      // Back: some records kept while offline go up once more (a lost acknowledgement).
      for (const record of this.offlineRecords.splice(0))
        if (this.random.chance(RESEND_CHANCE)) this.outbox.push(record);
    }
    this.online = online;
  }

  drainEvents(): SimEvent[] {
    return this.outbox.splice(0);
  }

  /** A swipe now (tests; the model swipes on its own at its daily rate). */
  swipe(cardNo: string): void {
    if (this.running || this.waiting || this.locked) return;
    this.startSwipe(cardNo, this.time);
  }

  protected step(now: number, dt: number): void {
    if (this.waiting && now >= this.waiting.until) this.waiting = undefined;
    const running = this.running;
    if (running) {
      const volume = (FLOW * dt) / 3600;
      const energy = (POWER * dt) / 3600;
      this.totalVolume += volume;
      this.totalEnergy += energy;
      if (this.chargeOf(running) >= running.creditFen) this.end(now, 'balanceExhausted');
      else if (now >= running.plannedEnd) this.end(now, 'cardRemoved');
      return;
    }
    const cards = this.options.cardNos ?? [];
    const rate = this.options.swipesPerDay ?? 4;
    if (this.waiting || this.locked || !this.random.chance((rate * dt) / 86_400)) return;
    if (cards.length > 0) {
      this.startSwipe(cards[Math.floor(this.random.between(0, cards.length))]!, now);
      return;
    }
    // No cards known (a simulated past, a fleet without billing): the pump runs all the same.
    this.begin(now, {
      sessionId: undefined,
      cardNo: `C${Math.floor(this.random.between(10_000_000, 99_999_999))}`,
      creditFen: Number.POSITIVE_INFINITY,
      ...this.lastPrice,
    });
    this.running!.anonymous = true;
  }

  private startSwipe(cardNo: string, now: number): void {
    const sequence = (this.cardSequences.get(cardNo) ?? 0) + 1;
    this.cardSequences.set(cardNo, sequence);
    const balance = this.cardBalances.get(cardNo) ?? CARD_START_FEN;
    if (this.online) {
      this.waiting = { cardNo, until: now + AUTHORIZE_WAIT_MS };
      this.emit(now, CARD_SWIPE_EVENT, { cardNo, cardBalanceFen: balance, cardSequence: sequence });
      return;
    }
    // Offline: the card's own balance, unless the last list from the server blocks it.
    if (this.blacklist.has(cardNo) || balance <= 0) {
      this.emit(now, 'invalidCard', { cardNo });
      return;
    }
    this.begin(now, { sessionId: undefined, cardNo, creditFen: balance, ...this.lastPrice });
  }

  private begin(
    now: number,
    terms: Pick<
      Running,
      'sessionId' | 'cardNo' | 'creditFen' | 'billingMode' | 'unitPriceFen' | 'm3PerKwh'
    >,
  ): void {
    this.waiting = undefined;
    this.running = {
      ...terms,
      startedAt: now,
      plannedEnd: now + this.random.between(...(this.options.sessionHours ?? [0.5, 3])) * 3_600_000,
      kwhStart: this.totalEnergy,
      m3Start: this.totalVolume,
    };
  }

  /** What the session cost so far at the controller's price (the server prices it again). */
  private chargeOf(running: Running): number {
    const kwh = this.totalEnergy - running.kwhStart;
    const m3 = this.totalVolume - running.m3Start;
    const hours = (this.time - running.startedAt) / 3_600_000;
    const units =
      running.billingMode === 'kwh'
        ? kwh
        : running.billingMode === 'time'
          ? hours
          : running.billingMode === 'energyToWater'
            ? kwh * running.m3PerKwh
            : m3;
    return Math.round(units * running.unitPriceFen);
  }

  private end(now: number, reason: SessionEndReason): void {
    const running = this.running;
    if (!running) return;
    this.running = undefined;
    if (running.anonymous) return;
    const amountFen = Math.min(this.chargeOf(running), running.creditFen);
    this.recordNo += 1;
    if (!running.sessionId) {
      const balance = this.cardBalances.get(running.cardNo) ?? CARD_START_FEN;
      this.cardBalances.set(running.cardNo, Math.max(0, balance - amountFen));
    }
    const record = this.event(now, SESSION_END_EVENT, {
      recordNo: this.recordNo,
      ...(running.sessionId ? { sessionId: running.sessionId } : {}),
      cardNo: running.cardNo,
      startedAt: Math.round(running.startedAt),
      endedAt: Math.round(now),
      kwhStart: round(running.kwhStart, 3),
      kwhEnd: round(this.totalEnergy, 3),
      m3Start: round(running.m3Start, 3),
      m3End: round(this.totalVolume, 3),
      endReason: reason,
      amountFen,
    });
    this.outbox.push(record);
    if (!this.online) this.offlineRecords.push(record);
  }

  private event(now: number, key: string, params: Record<string, unknown>): SimEvent {
    return { ts: Math.round(now), key, params };
  }

  private emit(now: number, key: string, params: Record<string, unknown>): void {
    this.outbox.push(this.event(now, key, params));
  }

  override command(name: string, params: Record<string, unknown>): CommandOutcome | undefined {
    switch (name) {
      case 'stopPump':
        this.end(this.time, 'manual');
        return { ok: true };
      case 'lockController':
        // A locked controller refuses cards (tamper, unpaid dues) and stops a running session.
        this.locked = params['locked'] === true;
        if (this.locked) this.end(this.time, 'manual');
        return { ok: true };
      case AUTHORIZE_SESSION_COMMAND: {
        const cardNo = String(params['cardNo'] ?? '');
        // The card was taken off meanwhile (the wait ran out), or another is on the reader.
        if (!this.waiting || this.waiting.cardNo !== cardNo || this.running)
          return { ok: false, message: 'no such card waiting' };
        const billingMode = String(params['billingMode']) as ControllerBillingMode;
        const terms = {
          billingMode,
          unitPriceFen: numberParam(params, 'unitPriceFen', OFFLINE_PRICE_FEN),
          m3PerKwh: numberParam(params, 'm3PerKwh', 0),
        };
        this.lastPrice = terms;
        this.begin(this.time, {
          sessionId: String(params['sessionId']),
          cardNo,
          creditFen: numberParam(params, 'creditFen', 0),
          ...terms,
        });
        return { ok: true };
      }
      case REJECT_CARD_COMMAND:
        if (this.waiting?.cardNo === params['cardNo']) this.waiting = undefined;
        return { ok: true };
      case SYNC_BLACKLIST_COMMAND:
        this.blacklist = new Set(parseBlacklistParam(params['cardNos']));
        return { ok: true };
      default:
        return undefined;
    }
  }

  values(): SimValues {
    const running = this.running !== undefined;
    return {
      pumpRunning: running,
      voltage: round(380 + this.random.normal(0, 1.5), 1),
      current: running ? round(19.5 + this.random.normal(0, 0.3), 2) : 0,
      cardNo: this.running?.cardNo ?? this.waiting?.cardNo ?? '',
      flow: running ? FLOW : 0,
      cumulativeVolume: round(this.totalVolume, 1),
      energy: round(this.totalEnergy, 1),
    };
  }
}
