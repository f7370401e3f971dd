import type { Database, Sql } from '../../../db/database';
import {
  ingestRepo,
  partitionOf,
  type DeviceUpdate,
  type StatDelta,
  type StoredRow,
} from './ingest.repo';

/** What one uplink asks to store; `meta` travels to the commit callback untouched. */
export interface WriteItem<M = unknown> {
  rows: StoredRow[];
  stat?: StatDelta;
  device?: DeviceUpdate;
  meta?: M;
}

export interface TelemetryWriterOptions {
  /** Flush when this many rows are queued... */
  batchRows?: number;
  /** ...or when the oldest queued item has waited this long. */
  flushMs?: number;
  /** Writers wait (back-pressure up to the devices) when this many rows are queued. */
  maxQueuedRows?: number;
  /** Under load, latest values, counters and device contact are written this often (ms). */
  stateFlushMs?: number;
  /**
   * Flushes in flight at once: the next batch is prepared and sent while the previous one is
   * being written (PostgreSQL: 2; PGlite runs one statement at a time, so 1).
   */
  concurrency?: number;
}

interface Queued<M> {
  item: WriteItem<M>;
  weight: number;
  resolve(): void;
  reject(error: unknown): void;
}

const deviceKey = (tenantId: string, deviceId: string) => `${tenantId}/${deviceId}`;

/**
 * Latest values, counters and device contact of several flushes, merged in place. Under load every
 * flush adds its uplinks here; merging into fresh arrays and maps each time re-keyed and copied
 * the whole pending state (thousands of entries) per flush.
 */
class PendingState {
  /** Newest row per device (outer key) and property key. */
  readonly latest = new Map<string, Map<string, StoredRow>>();
  readonly stats = new Map<string, StatDelta>();
  readonly devices = new Map<string, DeviceUpdate>();

  get empty(): boolean {
    return this.latest.size === 0 && this.stats.size === 0 && this.devices.size === 0;
  }

  /** A later row replaces an earlier one of the same instant. */
  addRows(rows: readonly StoredRow[]): void {
    let lastTenant = '';
    let lastDevice = '';
    let perKey: Map<string, StoredRow> | undefined;
    for (const row of rows) {
      if (!perKey || row.tenantId !== lastTenant || row.deviceId !== lastDevice) {
        lastTenant = row.tenantId;
        lastDevice = row.deviceId;
        const id = deviceKey(row.tenantId, row.deviceId);
        perKey = this.latest.get(id);
        if (!perKey) this.latest.set(id, (perKey = new Map()));
      }
      const seen = perKey.get(row.key);
      if (!seen || seen.ts.getTime() <= row.ts.getTime()) perKey.set(row.key, row);
    }
  }

  /** Per-device sums of the counters; the last problem is the latest one. */
  addStat(stat: StatDelta): void {
    const id = deviceKey(stat.tenantId, stat.deviceId);
    const into = this.stats.get(id);
    if (!into) {
      this.stats.set(id, { ...stat });
      return;
    }
    into.accepted += stat.accepted;
    into.unknownKeys += stat.unknownKeys;
    into.wrongType += stat.wrongType;
    into.outOfRange += stat.outOfRange;
    into.badPayload += stat.badPayload;
    into.badTime += stat.badTime;
    if (stat.lastProblem !== null) {
      into.lastProblem = stat.lastProblem;
      into.lastProblemAt = stat.lastProblemAt;
    }
    if (
      stat.lastAcceptedAt &&
      (!into.lastAcceptedAt || into.lastAcceptedAt.getTime() < stat.lastAcceptedAt.getTime())
    )
      into.lastAcceptedAt = stat.lastAcceptedAt;
  }

  addDevice(update: DeviceUpdate): void {
    const id = deviceKey(update.tenantId, update.deviceId);
    const into = this.devices.get(id);
    if (!into) {
      this.devices.set(id, { ...update });
      return;
    }
    if (update.seenAt && (!into.seenAt || into.seenAt.getTime() < update.seenAt.getTime()))
      into.seenAt = update.seenAt;
    if (update.online !== null) into.online = update.online;
  }

  addItems(items: readonly WriteItem<unknown>[]): void {
    for (const item of items) {
      if (item.rows.length > 0) this.addRows(item.rows);
      if (item.stat) this.addStat(item.stat);
      if (item.device) this.addDevice(item.device);
    }
  }

  /** Adds a later state to this one. */
  addState(later: PendingState): void {
    for (const perKey of later.latest.values()) this.addRows([...perKey.values()]);
    for (const stat of later.stats.values()) this.addStat(stat);
    for (const update of later.devices.values()) this.addDevice(update);
  }

  /** Rows locked in one order on every node (and by concurrent flushes) cannot deadlock. */
  sorted(): SortedState {
    const latest: StoredRow[] = [];
    for (const perKey of this.latest.values()) for (const row of perKey.values()) latest.push(row);
    return {
      latest: latest.sort((a, b) => byDevice(a, b) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)),
      stats: [...this.stats.values()].sort(byDevice),
      devices: [...this.devices.values()].sort(byDevice),
    };
  }
}

interface SortedState {
  latest: StoredRow[];
  stats: StatDelta[];
  devices: DeviceUpdate[];
}

/**
 * Numeric order of two bigint ids. Ids from the database are canonical decimals, so a shorter one
 * is smaller and equal lengths compare as text; BigInt per comparison (the sort of a state flush
 * makes tens of thousands) is kept for anything else.
 */
function compareIds(a: string, b: string): number {
  if (a === b) return 0;
  if (a.charCodeAt(0) === 45 || b.charCodeAt(0) === 45 || a[0] === '0' || b[0] === '0')
    return Number(BigInt(a) - BigInt(b));
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : 1;
}

function byDevice(
  a: { tenantId: string; deviceId: string },
  b: { tenantId: string; deviceId: string },
): number {
  return compareIds(a.tenantId, b.tenantId) || compareIds(a.deviceId, b.deviceId);
}

const isMissingPartition = (error: unknown) =>
  error instanceof Error && /no partition of relation/i.test(error.message);

/**
 * Collects what uplinks of every device and tenant ask to store and writes it in one transaction
 * of a few multi-row statements, every `flushMs` or `batchRows` rows, whichever comes first.
 * Each `write` resolves once its rows are committed (the device's QoS 1 acknowledgement waits for
 * it) and rejects when its flush failed (the device resends). The queue is bounded: a full queue
 * makes writers wait, so a flood slows the devices down instead of growing memory.
 *
 * The readings are what an acknowledgement promises; the latest values, counters and contact
 * times are state derived from them. When nothing else waits, a flush writes both in one
 * transaction. Under load (uplinks queued behind the batch) the state of many flushes is merged in
 * memory and written every `stateFlushMs`: thousands of devices reporting every second then cost
 * one upsert per device and key per interval instead of one per reading, which is what bounded
 * ingestion (the latest table's updates cost more than the inserts). The price: the latest values
 * may lag the stored readings by that interval, and a crash loses at most that interval of counter
 * increments; the readings themselves are never deferred.
 */
export class TelemetryWriter<M = unknown> {
  private queue: Queued<M>[] = [];
  private queuedWeight = 0;
  /**
   * Writes that came while the queue was full, in order, admitted as flushes make room: the
   * writer's promise stays pending meanwhile, which is the back-pressure on the device.
   */
  private waiting: Queued<M>[] = [];
  private waitingHead = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly flushes = new Set<Promise<void>>();
  private closed = false;
  /** Month partitions known to exist, so a flush does not ask every time. */
  private readonly knownPartitions = new Set<string>();
  private readonly batchRows: number;
  private readonly flushMs: number;
  private readonly maxQueuedRows: number;
  private readonly stateFlushMs: number;
  private readonly concurrency: number;
  private pending = new PendingState();
  private stateTimer: NodeJS.Timeout | undefined;
  private stateFlushing: Promise<void> | undefined;

  private readonly db: Database;

  constructor(
    db: Database,
    options: TelemetryWriterOptions = {},
    private readonly onCommitted?: (items: WriteItem<M>[]) => void,
  ) {
    this.batchRows = options.batchRows ?? 2000;
    this.flushMs = options.flushMs ?? 20;
    this.maxQueuedRows = Math.max(options.maxQueuedRows ?? 50_000, this.batchRows);
    this.stateFlushMs = options.stateFlushMs ?? 500;
    this.concurrency = Math.max(1, options.concurrency ?? (db.kind === 'postgres' ? 2 : 1));
    // Connections of its own (the flushes and the deferred state): devices wait for these
    // writes to be acknowledged, and a pool full of slow requests must not hold them back.
    this.db = db.lane('telemetry', this.concurrency + 1);
  }

  /** Rows waiting for a flush (for tests and health). */
  get queuedRows(): number {
    return this.queuedWeight;
  }

  write(item: WriteItem<M>): Promise<void> {
    if (this.closed) return Promise.reject(new Error('telemetry writer is closed'));
    // An item weighs its rows, at least one (counters and presence cost a little too).
    const weight = Math.max(1, item.rows.length);
    return new Promise<void>((resolve, reject) => {
      const queued = { item, weight, resolve, reject };
      if (this.waitingHead < this.waiting.length || !this.hasRoomFor(weight)) {
        this.waiting.push(queued);
        return;
      }
      this.admit(queued);
      this.schedule();
    });
  }

  private hasRoomFor(weight: number): boolean {
    return this.queuedWeight === 0 || this.queuedWeight + weight <= this.maxQueuedRows;
  }

  private admit(queued: Queued<M>): void {
    this.queue.push(queued);
    this.queuedWeight += queued.weight;
  }

  /** Lets waiting writes in, in the order they came, while there is room. */
  private admitWaiting(): void {
    const waiting = this.waiting;
    while (this.waitingHead < waiting.length && this.hasRoomFor(waiting[this.waitingHead]!.weight))
      this.admit(waiting[this.waitingHead++]!);
    // Drop the admitted ones now and then, not one shift at a time (a shift copies the array).
    if (this.waitingHead === waiting.length) {
      this.waiting = [];
      this.waitingHead = 0;
    } else if (this.waitingHead > 1024 && this.waitingHead * 2 > waiting.length) {
      this.waiting = waiting.slice(this.waitingHead);
      this.waitingHead = 0;
    }
  }

  /** Writes what is queued, then refuses new writes. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    while (this.queue.length > 0 || this.flushes.size > 0) {
      while (this.queue.length > 0 && this.flushes.size < this.concurrency) this.startFlush();
      await Promise.race(this.flushes);
    }
    if (this.stateTimer) clearTimeout(this.stateTimer);
    this.stateTimer = undefined;
    await this.stateFlushing;
    await this.flushState();
  }

  private schedule(): void {
    if (this.queuedWeight >= this.batchRows) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = undefined;
      while (this.queuedWeight >= this.batchRows && this.flushes.size < this.concurrency)
        this.startFlush();
      return;
    }
    // Less than a batch: let it gather for flushMs, even while a flush runs. The broker hands
    // over one message per device connection at a time (the next waits for this one's
    // acknowledgement), so a device whose message misses the running batch would otherwise wait
    // for that batch to end, and throughput would be capped at devices / flush time.
    if (this.flushes.size >= this.concurrency) return;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      if (this.queue.length > 0 && this.flushes.size < this.concurrency) this.startFlush();
    }, this.flushMs);
  }

  private startFlush(): void {
    const running: Promise<void> = this.flush(this.takeBatch()).finally(() => {
      this.flushes.delete(running);
      if (this.queue.length > 0 && !this.closed) this.schedule();
    });
    this.flushes.add(running);
  }

  private takeBatch(): Queued<M>[] {
    // One splice per batch: a shift per item copied the whole queue each time, which under a
    // backlog of thousands of uplinks took a sixth of the server's time.
    const queue = this.queue;
    let count = 0;
    let weight = 0;
    while (count < queue.length && (count === 0 || weight < this.batchRows))
      weight += queue[count++]!.weight;
    const batch = queue.splice(0, count);
    this.queuedWeight -= weight;
    this.admitWaiting();
    return batch;
  }

  private async flush(batch: Queued<M>[]): Promise<void> {
    const items = batch.map((queued) => queued.item);
    const rows = items.length === 1 ? items[0]!.rows : items.flatMap((item) => item.rows);
    // Uplinks waiting behind this batch: keep it lean and write the state later, merged.
    const backlog = this.queue.length > 0;
    const earlier = backlog ? undefined : this.takeState();
    try {
      let state: SortedState | undefined;
      if (earlier) {
        const merged = new PendingState();
        merged.addState(earlier);
        merged.addItems(items);
        state = merged.sorted();
      }
      try {
        await this.store(rows, state);
      } catch (error) {
        // Another node's sweeper dropped a month this node still believed in: look again once.
        if (!isMissingPartition(error)) throw error;
        this.knownPartitions.clear();
        await this.store(rows, state);
      }
    } catch (error) {
      // The batch's own state goes with its rows (the devices resend); earlier state waits.
      if (earlier) {
        earlier.addState(this.pending);
        this.pending = earlier;
      }
      for (const queued of batch) queued.reject(error);
      return;
    }
    if (backlog) {
      this.pending.addItems(items);
      this.scheduleState();
    }
    for (const queued of batch) queued.resolve();
    this.onCommitted?.(items);
  }

  private takeState(): PendingState {
    const taken = this.pending;
    this.pending = new PendingState();
    return taken;
  }

  private scheduleState(): void {
    this.stateTimer ??= setTimeout(() => {
      this.stateTimer = undefined;
      this.stateFlushing ??= this.flushState()
        .catch(() => this.scheduleState()) // kept in `pending`; the next attempt retries
        .finally(() => (this.stateFlushing = undefined));
    }, this.stateFlushMs);
  }

  /** Writes the deferred state now (close, tests). */
  async flushState(): Promise<void> {
    const state = this.takeState();
    if (state.empty) return;
    try {
      await this.db.system((sql) => this.storeState(sql, state.sorted()));
    } catch (error) {
      state.addState(this.pending);
      this.pending = state;
      throw error;
    }
  }

  private async storeState(sql: Sql, state: SortedState): Promise<void> {
    await ingestRepo.upsertLatest(sql, state.latest);
    await ingestRepo.addStats(sql, state.stats);
    await ingestRepo.updateDevices(sql, state.devices);
  }

  private async store(rows: StoredRow[], state: SortedState | undefined) {
    const missing = new Map<string, Date>();
    for (const row of rows) {
      const name = partitionOf(row.ts);
      if (!this.knownPartitions.has(name) && !missing.has(name)) missing.set(name, row.ts);
    }
    await this.db.system(async (sql) => {
      await ingestRepo.ensurePartitions(sql, [...missing.values()]);
      await ingestRepo.insertTelemetry(sql, rows);
      if (state) await this.storeState(sql, state);
    });
    for (const name of missing.keys()) this.knownPartitions.add(name);
  }

  /** The sweeper dropped a partition: ask the database again next time. */
  forgetPartition(name: string): void {
    this.knownPartitions.delete(name);
  }
}
