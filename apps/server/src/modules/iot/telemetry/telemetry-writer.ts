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

/** Latest values, counters and device contact of several flushes, merged. */
interface PendingState {
  latest: StoredRow[];
  stats: StatDelta[];
  devices: DeviceUpdate[];
}

interface Queued<M> {
  item: WriteItem<M>;
  weight: number;
  resolve(): void;
  reject(error: unknown): void;
}

const deviceKey = (tenantId: string, deviceId: string) => `${tenantId}/${deviceId}`;

/** Newest value per device and key (the latest table takes one row per key per statement). */
export function newestPerKey(rows: StoredRow[]): StoredRow[] {
  const newest = new Map<string, StoredRow>();
  for (const row of rows) {
    const id = `${row.tenantId}/${row.deviceId}/${row.key}`;
    const seen = newest.get(id);
    if (!seen || seen.ts.getTime() <= row.ts.getTime()) newest.set(id, row);
  }
  return [...newest.values()];
}

/** Per-device sums of the counters of many uplinks; the last problem is the latest one. */
export function mergeStats(stats: StatDelta[]): StatDelta[] {
  const merged = new Map<string, StatDelta>();
  for (const stat of stats) {
    const id = deviceKey(stat.tenantId, stat.deviceId);
    const into = merged.get(id);
    if (!into) {
      merged.set(id, { ...stat });
      continue;
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
  return [...merged.values()];
}

export function mergeDeviceUpdates(updates: DeviceUpdate[]): DeviceUpdate[] {
  const merged = new Map<string, DeviceUpdate>();
  for (const update of updates) {
    const id = deviceKey(update.tenantId, update.deviceId);
    const into = merged.get(id);
    if (!into) {
      merged.set(id, { ...update });
      continue;
    }
    if (update.seenAt && (!into.seenAt || into.seenAt.getTime() < update.seenAt.getTime()))
      into.seenAt = update.seenAt;
    if (update.online !== null) into.online = update.online;
  }
  return [...merged.values()];
}

function byDevice(
  a: { tenantId: string; deviceId: string },
  b: { tenantId: string; deviceId: string },
): number {
  return (
    Number(BigInt(a.tenantId) - BigInt(b.tenantId)) ||
    Number(BigInt(a.deviceId) - BigInt(b.deviceId))
  );
}

/** Two states merged: newest value per key, summed counters, latest contact. */
function mergeState(a: PendingState, b: PendingState): PendingState {
  return {
    latest: newestPerKey([...a.latest, ...b.latest]),
    stats: mergeStats([...a.stats, ...b.stats]),
    devices: mergeDeviceUpdates([...a.devices, ...b.devices]),
  };
}

/** Rows locked in one order on every node (and by concurrent flushes) cannot deadlock. */
function sortedState(state: PendingState): PendingState {
  return {
    latest: [...state.latest].sort(
      (a, b) => byDevice(a, b) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
    ),
    stats: [...state.stats].sort(byDevice),
    devices: [...state.devices].sort(byDevice),
  };
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
  private spaceWaiters: Array<() => void> = [];
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
  private pending: PendingState = { latest: [], stats: [], devices: [] };
  private stateTimer: NodeJS.Timeout | undefined;
  private stateFlushing: Promise<void> | undefined;

  constructor(
    private readonly db: Database,
    options: TelemetryWriterOptions = {},
    private readonly onCommitted?: (items: WriteItem<M>[]) => void,
  ) {
    this.batchRows = options.batchRows ?? 2000;
    this.flushMs = options.flushMs ?? 20;
    this.maxQueuedRows = Math.max(options.maxQueuedRows ?? 50_000, this.batchRows);
    this.stateFlushMs = options.stateFlushMs ?? 500;
    this.concurrency = Math.max(1, options.concurrency ?? (db.kind === 'postgres' ? 2 : 1));
  }

  /** Rows waiting for a flush (for tests and health). */
  get queuedRows(): number {
    return this.queuedWeight;
  }

  async write(item: WriteItem<M>): Promise<void> {
    if (this.closed) throw new Error('telemetry writer is closed');
    // An item weighs its rows, at least one (counters and presence cost a little too).
    const weight = Math.max(1, item.rows.length);
    while (this.queuedWeight > 0 && this.queuedWeight + weight > this.maxQueuedRows) {
      await new Promise<void>((resolve) => this.spaceWaiters.push(resolve));
      if (this.closed) throw new Error('telemetry writer is closed');
    }
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ item, weight, resolve, reject });
      this.queuedWeight += weight;
      this.schedule();
    });
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
    for (const wake of this.spaceWaiters.splice(0)) wake();
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
    const batch: Queued<M>[] = [];
    let weight = 0;
    while (this.queue.length > 0 && (batch.length === 0 || weight < this.batchRows)) {
      const next = this.queue.shift()!;
      batch.push(next);
      weight += next.weight;
    }
    this.queuedWeight -= weight;
    // Room again: let waiting writers in, in the order they came.
    for (const wake of this.spaceWaiters.splice(0)) wake();
    return batch;
  }

  private async flush(batch: Queued<M>[]): Promise<void> {
    const items = batch.map((queued) => queued.item);
    const rows = items.flatMap((item) => item.rows);
    const own: PendingState = {
      latest: newestPerKey(rows),
      stats: items.flatMap((item) => (item.stat ? [item.stat] : [])),
      devices: items.flatMap((item) => (item.device ? [item.device] : [])),
    };
    // Uplinks waiting behind this batch: keep it lean and write the state later, merged.
    const backlog = this.queue.length > 0;
    const earlier = backlog ? undefined : this.takeState();
    try {
      const state = earlier && sortedState(mergeState(earlier, own));
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
      if (earlier) this.pending = mergeState(earlier, this.pending);
      for (const queued of batch) queued.reject(error);
      return;
    }
    if (backlog) {
      this.pending = mergeState(this.pending, own);
      this.scheduleState();
    }
    for (const queued of batch) queued.resolve();
    this.onCommitted?.(items);
  }

  private takeState(): PendingState {
    const taken = this.pending;
    this.pending = { latest: [], stats: [], devices: [] };
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
    if (!state.latest.length && !state.stats.length && !state.devices.length) return;
    try {
      await this.db.system((sql) => this.storeState(sql, sortedState(state)));
    } catch (error) {
      this.pending = mergeState(state, this.pending);
      throw error;
    }
  }

  private async storeState(sql: Sql, state: PendingState): Promise<void> {
    await ingestRepo.upsertLatest(sql, state.latest);
    await ingestRepo.addStats(sql, state.stats);
    await ingestRepo.updateDevices(sql, state.devices);
  }

  private async store(rows: StoredRow[], state: PendingState | undefined) {
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
