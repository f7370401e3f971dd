import { LED_SCREEN_KIND, LED_SET_PROGRAM, LED_UPDATE_VALUES, ledValueKey } from '@shuili/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../../db/database';
import { AppError } from '../../../http/app-error';
import type { CommandService } from '../../iot/command/command.service';
import type { DeviceTelemetry, IngestListener } from '../../iot/telemetry/ingest-listener';
import { ledProgramRepo } from './led-program.repo';

/** How long a tenant's index of screens and bindings is trusted (new screens, edited programs). */
const INDEX_MS = 30_000;
/** Readings arriving together make one update per screen. */
const COALESCE_MS = 500;
/**
 * A screen is updated at most once a minute: a canal level needs no more, and every update is an
 * operation record.
 */
const MIN_UPDATE_MS = 60_000;
/** An update waits this long for a screen that is away, then gives way to the next. */
const UPDATE_EXPIRES_SECONDS = 300;
/** A screen that came back blank gets its program again at most this often. */
const RESTORE_EVERY_MS = 10 * 60_000;

/** Operation records name these as the sender of the server's own LED commands. */
export const LED_LIVE_USER = 'LED live values';
export const LED_RESTORE_USER = 'LED program restore';

interface TenantIndex {
  at: number;
  screens: Set<string>;
  /** `<deviceId>.<property>` → the screens whose program shows it. */
  watchers: Map<string, Set<string>>;
  /** A screen → the value keys of the program it shows. */
  keysOf: Map<string, string[]>;
}

/**
 * Live values on LED screens (issue 19 item 8). A program carries its bindings; the server
 * watches what ingestion stores and, when a bound property of a screen's program has a new
 * reading, sends that screen `updateValues` (every bound value of its program, as JSON keyed
 * `<deviceId>.<property>`) through the command engine, so it is acknowledged, expires while the
 * screen is away and is an operation record like any command. Unchanged values are not sent
 * again, and a screen gets at most one update a minute. A screen that reports showing nothing (a controller that lost its memory) gets the
 * last program it acknowledged again.
 */
export class LedLiveValues implements IngestListener {
  private readonly index = new Map<string, Promise<TenantIndex>>();
  private readonly lastSent = new Map<string, string>();
  private readonly sentAt = new Map<string, number>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly restored = new Map<string, number>();
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly deps: { db: Database; commands: CommandService; log: FastifyBaseLogger },
  ) {}

  async onTelemetry(batches: DeviceTelemetry[]): Promise<void> {
    for (const { device, readings } of batches) {
      const index = await this.indexOf(device.tenantId);
      if (index.screens.has(device.deviceId)) {
        const program = readings.find((reading) => reading.key === 'program');
        if (program) {
          // What the screen shows changed (or was confirmed): its bindings are read again.
          this.index.delete(device.tenantId);
          this.lastSent.delete(device.deviceId);
          this.sentAt.delete(device.deviceId);
          if (program.textValue === '') this.track(this.restore(device.tenantId, device.deviceId));
        }
        continue;
      }
      for (const reading of readings) {
        if (reading.value === null) continue;
        const screens = index.watchers.get(`${device.deviceId}.${reading.key}`);
        for (const screen of screens ?? []) this.schedule(device.tenantId, screen);
      }
    }
  }

  /** Forgets what was sent, so the next reading updates every screen (a program was saved). */
  forget(tenantId: string): void {
    this.index.delete(tenantId);
    this.lastSent.clear();
  }

  async stop(): Promise<void> {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.running]);
  }

  private schedule(tenantId: string, screenId: string): void {
    if (this.timers.has(screenId)) return;
    const wait = Math.max(
      COALESCE_MS,
      (this.sentAt.get(screenId) ?? 0) + MIN_UPDATE_MS - Date.now(),
    );
    const timer = setTimeout(() => {
      this.timers.delete(screenId);
      this.track(this.update(tenantId, screenId));
    }, wait);
    timer.unref();
    this.timers.set(screenId, timer);
  }

  private track(work: Promise<void>): void {
    const guarded = work.catch((error: unknown) => {
      // Another update still under way: the next reading sends the values again.
      if (error instanceof AppError && error.status === 409) return;
      this.deps.log.warn({ err: error }, 'LED live values');
    });
    this.running.add(guarded);
    void guarded.finally(() => this.running.delete(guarded));
  }

  private async update(tenantId: string, screenId: string): Promise<void> {
    const keys = (await this.indexOf(tenantId)).keysOf.get(screenId);
    if (!keys || keys.length === 0) return;
    const values = await this.deps.db.tenant(tenantId, (sql) => ledProgramRepo.latest(sql, keys));
    const text = JSON.stringify(values);
    if (this.lastSent.get(screenId) === text) return;
    await this.deps.commands.sendAsServer({
      tenantId,
      deviceId: screenId,
      name: LED_UPDATE_VALUES,
      params: { values: text },
      expiresInSeconds: UPDATE_EXPIRES_SECONDS,
      username: LED_LIVE_USER,
    });
    this.lastSent.set(screenId, text);
    this.sentAt.set(screenId, Date.now());
  }

  private async restore(tenantId: string, screenId: string): Promise<void> {
    const now = Date.now();
    if (now - (this.restored.get(screenId) ?? 0) < RESTORE_EVERY_MS) return;
    this.restored.set(screenId, now);
    const last = await this.deps.db.tenant(tenantId, async (sql) => {
      const { rows } = await sql.query<{ params: string; under_way: boolean }>(
        `SELECT c.params,
                EXISTS (SELECT 1 FROM iot_command w WHERE w.device_id = c.device_id
                           AND w.name = c.name AND w.status IN ('pending', 'sent')) AS under_way
           FROM iot_command c
          WHERE c.device_id = $1 AND c.name = $2 AND c.status = 'succeeded'
          ORDER BY c.id DESC LIMIT 1`,
        [screenId, LED_SET_PROGRAM],
      );
      return rows[0];
    });
    if (!last || last.under_way) return;
    await this.deps.commands.sendAsServer({
      tenantId,
      deviceId: screenId,
      name: LED_SET_PROGRAM,
      params: JSON.parse(last.params) as Record<string, unknown>,
      expiresInSeconds: UPDATE_EXPIRES_SECONDS,
      username: LED_RESTORE_USER,
    });
  }

  private indexOf(tenantId: string): Promise<TenantIndex> {
    const known = this.index.get(tenantId);
    if (known) return known;
    const loading = this.load(tenantId).then((index) => {
      const timer = setTimeout(() => {
        if (this.index.get(tenantId) === loading) this.index.delete(tenantId);
      }, INDEX_MS);
      timer.unref();
      return index;
    });
    // A failed load is tried again by the next reading.
    loading.catch(() => this.index.delete(tenantId));
    this.index.set(tenantId, loading);
    return loading;
  }

  private async load(tenantId: string): Promise<TenantIndex> {
    return this.deps.db.tenant(tenantId, async (sql) => {
      const { rows } = await sql.query<{ id: string; program_no: string | null }>(
        `SELECT d.id::text, l.text_value AS program_no
           FROM iot_device d JOIN iot_product p ON p.id = d.product_id
           LEFT JOIN iot_telemetry_latest l
                  ON l.tenant_id = d.tenant_id AND l.device_id = d.id AND l.key = 'program'
          WHERE p.device_kind = $1`,
        [LED_SCREEN_KIND],
      );
      const programs = await ledProgramRepo.byCodes(sql, [
        ...new Set(rows.flatMap((row) => (row.program_no ? [row.program_no] : []))),
      ]);
      const index: TenantIndex = {
        at: Date.now(),
        screens: new Set(rows.map((row) => row.id)),
        watchers: new Map(),
        keysOf: new Map(),
      };
      for (const row of rows) {
        const program = programs.find((one) => one.programNo === row.program_no);
        if (!program) continue;
        const keys = new Set<string>();
        for (const page of program.pages)
          for (const element of page.elements)
            if (element.type === 'live' && element.binding) keys.add(ledValueKey(element.binding));
        index.keysOf.set(row.id, [...keys]);
        for (const key of keys) {
          const watchers = index.watchers.get(key) ?? new Set<string>();
          watchers.add(row.id);
          index.watchers.set(key, watchers);
        }
      }
      return index;
    });
  }
}
