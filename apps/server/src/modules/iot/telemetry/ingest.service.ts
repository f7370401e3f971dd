import {
  commandAckSchema,
  eventPayloadSchema,
  MAX_PAYLOAD_BYTES,
  statusPayloadSchema,
  type UplinkChannel,
} from '@shuili/contract';
import type { z } from 'zod';
import type { Database } from '../../../db/database';
import { DeviceIdentityEndedError } from '../../../mqtt/device-transport';
import type { DeviceDirectory, DirectoryEntry } from '../device/device-directory';
import type { StoredRow } from './ingest.repo';
import type {
  DevicePresenceMessage,
  DeviceRef,
  DeviceTelemetry,
  IngestListener,
} from './ingest-listener';
import { PresenceTracker } from './presence-tracker';
import {
  checkReadings,
  checkTelemetry,
  MAX_FUTURE_MS,
  noProblems,
  problemTotal,
  readingTime,
  type AcceptedWindow,
  type CheckResult,
} from './telemetry-check';
import type { RetentionSettings } from './telemetry-settings';
import { TelemetryWriter, type TelemetryWriterOptions, type WriteItem } from './telemetry-writer';

/** A message a device published on one of its own topics, as the transport hands it over. */
export interface Uplink {
  tenantCode: string;
  deviceNo: string;
  channel: UplinkChannel | (string & {});
  payload: Buffer;
  receivedAt: Date | number;
  /** The device the connection authenticated as, when the transport knows it (DeviceTransport). */
  deviceId?: string;
}

/** Where ingestion reports what it cannot blame on a device (pino's signature). */
export interface IngestLogger {
  warn(object: object, message: string): void;
}

export interface IngestServiceOptions extends TelemetryWriterOptions {
  /** last_seen is written at most this often per device. */
  seenThrottleMs?: number;
}

interface FlushMeta {
  device: DeviceRef;
  presence?: DevicePresenceMessage;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Directory entries live for a minute: one DeviceRef per entry, not one per uplink. */
const refs = new WeakMap<DirectoryEntry, DeviceRef>();
function refOf(entry: DirectoryEntry): DeviceRef {
  let ref = refs.get(entry);
  if (!ref) {
    ref = {
      tenantId: entry.tenantId,
      tenantCode: entry.tenantCode,
      deviceId: entry.deviceId,
      deviceNo: entry.deviceNo,
      productId: entry.productId,
    };
    refs.set(entry, ref);
  }
  return ref;
}

function parseJson<S extends z.ZodType>(
  schema: S,
  payload: Buffer,
): { ok: true; data: z.infer<S> } | { ok: false; problem: string } {
  if (payload.length > MAX_PAYLOAD_BYTES) return { ok: false, problem: 'badPayload: too large' };
  let json: unknown;
  try {
    json = JSON.parse(payload.toString('utf8'));
  } catch {
    return { ok: false, problem: 'badPayload: not JSON' };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const path = parsed.error.issues[0]?.path.join('.') || '(root)';
    return { ok: false, problem: `badPayload: wrong shape at ${path}` };
  }
  return { ok: true, data: parsed.data };
}

const badPayload = (problem: string): CheckResult => ({
  values: [],
  problems: { ...noProblems(), badPayload: 1 },
  lastProblem: problem,
});

/**
 * Turns device uplinks into stored telemetry, counters, presence and listener calls. `handle`
 * resolves when what the uplink carried is committed (the QoS 1 acknowledgement waits for it) and
 * rejects only when storing failed (the device resends); a bad payload is counted, not thrown.
 * The tenant always comes from the authenticated identity (tenantCode of the topic the broker
 * let the device use), never from the payload.
 */
export class IngestService {
  private readonly writer: TelemetryWriter<FlushMeta>;
  private readonly presenceTracker: PresenceTracker;

  constructor(
    private readonly deps: {
      db: Database;
      directory: DeviceDirectory;
      retention: RetentionSettings;
      listeners: IngestListener[];
      log?: IngestLogger;
    },
    options: IngestServiceOptions = {},
  ) {
    this.writer = new TelemetryWriter<FlushMeta>(deps.db, options, (items) =>
      this.committed(items),
    );
    this.presenceTracker = new PresenceTracker(options.seenThrottleMs);
  }

  /** Adds a listener (services built after ingestion, such as alarms, register themselves). */
  addListener(listener: IngestListener): void {
    this.deps.listeners.push(listener);
  }

  /** The writer, for the sweeper (dropped partitions) and tests (queue size). */
  get telemetryWriter(): TelemetryWriter<FlushMeta> {
    return this.writer;
  }

  async handle(uplink: Uplink): Promise<void> {
    const receivedAt =
      uplink.receivedAt instanceof Date ? uplink.receivedAt : new Date(uplink.receivedAt);
    const entry = await this.deviceOf(uplink.tenantCode, uplink.deviceNo, uplink.deviceId);
    if (!entry) {
      // Authenticated a moment ago, deleted since: nothing to count it against.
      this.deps.log?.warn(
        { tenantCode: uplink.tenantCode, deviceNo: uplink.deviceNo, channel: uplink.channel },
        'uplink from an unknown device dropped',
      );
      return;
    }
    switch (uplink.channel) {
      case 'telemetry': {
        const result = checkTelemetry(
          uplink.payload,
          entry.properties,
          receivedAt,
          await this.windowFor(entry.tenantId, receivedAt),
        );
        await this.store(entry, result, receivedAt);
        return;
      }
      case 'event':
        return this.handleEvent(entry, uplink.payload, receivedAt);
      case 'cmd/ack':
        return this.handleAck(entry, uplink.payload, receivedAt);
      case 'status': {
        const parsed = parseJson(statusPayloadSchema, uplink.payload);
        if (!parsed.ok) return this.store(entry, badPayload(parsed.problem), receivedAt);
        // The device's own word: sent once it subscribed to its commands (or its last will).
        return this.setPresence(entry, parsed.data.online, receivedAt, 'always');
      }
      default:
        return this.store(
          entry,
          badPayload(`badPayload: unexpected channel ${uplink.channel}`),
          receivedAt,
        );
    }
  }

  /**
   * The transport saw a device come online or go away (clean disconnect, keep-alive lost). Online
   * is its word that the device can take commands (embedded broker: connected with its cmd
   * subscription in place, once per connection; external: its status message), so listeners hear
   * of it every time, whether or not the device also publishes its status: command delivery
   * waits for it. Going away is announced when it changes the device's state.
   */
  async presence(
    tenantCode: string,
    deviceNo: string,
    online: boolean,
    at = new Date(),
    deviceId?: string,
  ) {
    const entry = await this.deps.directory.lookup(tenantCode, deviceNo);
    // A connection of an ended identity says nothing about the device now under its number.
    if (!entry || (deviceId !== undefined && entry.deviceId !== deviceId)) return;
    await this.setPresence(entry, online, at, online ? 'always' : 'ifChanged');
  }

  /**
   * The device an uplink is for. A connection bound to a device (deviceId) speaks for that device
   * only: when its identity now names another device or none (deleted or renumbered, maybe with
   * the number reused, and the announcement not here yet), it is refused with
   * DeviceIdentityEndedError and the transport closes it. A cached entry that disagrees is read
   * again first: the directory may be the stale one.
   */
  private async deviceOf(
    tenantCode: string,
    deviceNo: string,
    deviceId: string | undefined,
  ): Promise<DirectoryEntry | undefined> {
    let entry = await this.deps.directory.lookup(tenantCode, deviceNo);
    if (deviceId === undefined || entry?.deviceId === deviceId) return entry;
    this.deps.directory.forget(tenantCode, deviceNo);
    entry = await this.deps.directory.lookup(tenantCode, deviceNo);
    if (entry?.deviceId === deviceId) return entry;
    throw new DeviceIdentityEndedError(`${tenantCode}:${deviceNo}`);
  }

  /** Stores what is queued, then stops. */
  close(): Promise<void> {
    return this.writer.close();
  }

  private async windowFor(tenantId: string, now: Date): Promise<AcceptedWindow> {
    const days = await this.deps.retention.retentionDays(tenantId);
    return {
      from: new Date(now.getTime() - days * DAY_MS),
      to: new Date(now.getTime() + MAX_FUTURE_MS),
    };
  }

  private async handleEvent(entry: DirectoryEntry, payload: Buffer, receivedAt: Date) {
    const parsed = parseJson(eventPayloadSchema, payload);
    if (!parsed.ok) return this.store(entry, badPayload(parsed.problem), receivedAt);
    const event = parsed.data;
    if (!entry.thingModel.events.some((known) => known.key === event.key)) {
      return this.store(
        entry,
        {
          values: [],
          problems: { ...noProblems(), unknownKeys: 1 },
          lastProblem: `unknownKey: event ${event.key}`,
        },
        receivedAt,
      );
    }
    await this.store(entry, { values: [], problems: noProblems(), lastProblem: null }, receivedAt);
    const message = {
      device: refOf(entry),
      key: event.key,
      params: event.params,
      ts: readingTime(event.ts, receivedAt),
    };
    for (const listener of this.deps.listeners) await listener.onEvent?.(message);
  }

  private async handleAck(entry: DirectoryEntry, payload: Buffer, receivedAt: Date) {
    const parsed = parseJson(commandAckSchema, payload);
    if (!parsed.ok) return this.store(entry, badPayload(parsed.problem), receivedAt);
    const ack = parsed.data;
    // The values after the command (a valve's new state) are telemetry like any other.
    const result = ack.values
      ? checkReadings(
          [{ values: ack.values }],
          entry.properties,
          receivedAt,
          await this.windowFor(entry.tenantId, receivedAt),
        )
      : { values: [], problems: noProblems(), lastProblem: null };
    await this.store(entry, result, receivedAt);
    for (const listener of this.deps.listeners)
      await listener.onAck?.({ device: refOf(entry), ack, receivedAt });
  }

  private async setPresence(
    entry: DirectoryEntry,
    online: boolean,
    at: Date,
    announce: 'always' | 'ifChanged',
  ) {
    const { update, changed } = this.presenceTracker.set(
      entry.tenantId,
      entry.deviceId,
      online,
      at,
      'always',
    );
    const told = announce === 'always' || (announce === 'ifChanged' && changed);
    if (!update && !told) return;
    const device = refOf(entry);
    await this.writer.write({
      rows: [],
      device: update,
      meta: { device, presence: told ? { device, online, at } : undefined },
    });
  }

  private async store(entry: DirectoryEntry, result: CheckResult, receivedAt: Date) {
    const device = refOf(entry);
    // Literal rows, not spreads: one object per reading, and a stable shape for the writer.
    const { tenantId, deviceId } = entry;
    const rows: StoredRow[] = new Array<StoredRow>(result.values.length);
    for (let i = 0; i < rows.length; i++) {
      const value = result.values[i]!;
      rows[i] = {
        tenantId,
        deviceId,
        key: value.key,
        ts: value.ts,
        value: value.value,
        textValue: value.textValue,
      };
    }
    const seen = this.presenceTracker.seen(tenantId, deviceId, receivedAt);
    const problems = result.problems;
    const counted = rows.length > 0 || problemTotal(problems) > 0;
    const item: WriteItem<FlushMeta> = {
      rows,
      device: seen.update,
      stat: counted
        ? {
            tenantId,
            deviceId,
            accepted: rows.length,
            unknownKeys: problems.unknownKeys,
            wrongType: problems.wrongType,
            outOfRange: problems.outOfRange,
            badPayload: problems.badPayload,
            badTime: problems.badTime,
            lastProblem: result.lastProblem,
            lastProblemAt: result.lastProblem ? receivedAt : null,
            lastAcceptedAt: rows.length > 0 ? receivedAt : null,
          }
        : undefined,
      // A reading marks the device online in the table, but listeners wait for its status.
      meta: { device },
    };
    if (!item.stat && !item.device && rows.length === 0) return;
    await this.writer.write(item);
  }

  /**
   * After a commit: listeners hear of the stored readings and presence changes. The readings go
   * as the stored rows of each uplink (no copy per reading: see DeviceTelemetry).
   */
  private committed(items: WriteItem<FlushMeta>[]): void {
    const batches: DeviceTelemetry[] = [];
    const presences: DevicePresenceMessage[] = [];
    for (const item of items) {
      if (!item.meta) continue;
      if (item.rows.length > 0) batches.push({ device: item.meta.device, readings: item.rows });
      if (item.meta.presence) presences.push(item.meta.presence);
    }
    for (const listener of this.deps.listeners) {
      if (presences.length > 0 && listener.onPresence)
        for (const presence of presences) this.safely(() => listener.onPresence!(presence));
      if (batches.length > 0 && listener.onTelemetry)
        this.safely(() => listener.onTelemetry!(batches));
    }
  }

  private safely(call: () => void | Promise<void>): void {
    try {
      void Promise.resolve(call()).catch((error: unknown) =>
        this.deps.log?.warn({ err: error }, 'ingest listener failed'),
      );
    } catch (error) {
      this.deps.log?.warn({ err: error }, 'ingest listener failed');
    }
  }
}
