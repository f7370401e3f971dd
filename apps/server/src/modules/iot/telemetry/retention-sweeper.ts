import type { Database } from '../../../db/database';
import type { RetentionSettings } from './telemetry-settings';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The first instant after the month a partition holds ("iot_telemetry_y2026m03" -> Apr 1st). */
export function partitionEnd(name: string): Date | undefined {
  const match = /^iot_telemetry_y(\d{4})m(\d{2})$/.exec(name);
  if (!match) return undefined;
  return new Date(Date.UTC(Number(match[1]), Number(match[2]), 1));
}

export interface SweepResult {
  dropped: string[];
  deleted: number;
}

/**
 * Keeps telemetry as long as each tenant's `iot.retentionDays` says: whole month partitions go
 * when no tenant needs them any more (cheap), otherwise a tenant's expired rows are deleted. It
 * also creates the coming months' partitions. Runs hourly; one node at a time (advisory lock).
 */
export class RetentionSweeper {
  private timers: NodeJS.Timeout[] = [];
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly db: Database,
    private readonly retention: RetentionSettings,
    private readonly options: {
      intervalMs?: number;
      monthsAhead?: number;
      onDropped?: (partition: string) => void;
      log?: { warn(object: object, message: string): void };
    } = {},
  ) {}

  start(): void {
    const every = this.options.intervalMs ?? 60 * 60 * 1000;
    const run = () => {
      this.running ??= this.sweep()
        .catch((error: unknown) => this.options.log?.warn({ err: error }, 'telemetry sweep failed'))
        .finally(() => {
          this.running = undefined;
        });
    };
    // First soon after start (the months ahead), then hourly; neither keeps the process alive.
    this.timers = [setTimeout(run, 30_000), setInterval(run, every)];
    for (const timer of this.timers) timer.unref();
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers = [];
    await this.running;
  }

  async sweep(now = new Date()): Promise<SweepResult> {
    const { byTenant, longest } = await this.retention.all();
    const result = await this.db.withLock('shuili:iot-telemetry-retention', async (sql) => {
      const ahead = this.options.monthsAhead ?? 2;
      for (let month = 0; month <= ahead; month += 1)
        await sql.query(
          `SELECT iot_telemetry_partition($1::timestamptz + make_interval(months => $2))`,
          [now.toISOString(), month],
        );
      const { rows } = await sql.query<{ name: string }>(
        `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
          WHERE i.inhparent = 'iot_telemetry'::regclass ORDER BY c.relname`,
      );
      const keepFrom = now.getTime() - longest * DAY_MS;
      const dropped: string[] = [];
      for (const { name } of rows) {
        const end = partitionEnd(name);
        if (!end || end.getTime() > keepFrom) continue;
        await sql.query(`DROP TABLE IF EXISTS "${name}"`);
        // Dropping a partition fires no trigger: its hours leave the rollup (migration 006) here.
        await sql.query('DELETE FROM iot_telemetry_hourly WHERE hour < $1', [end.toISOString()]);
        // And the meter increases (migration 016) of days and months wholly before it anywhere.
        await sql.query(`DELETE FROM iot_meter_daily WHERE day < $1::date - 1`, [
          end.toISOString(),
        ]);
        await sql.query(
          `DELETE FROM iot_meter_monthly WHERE month < date_trunc('month', $1::date - 1)::date`,
          [end.toISOString()],
        );
        dropped.push(name);
      }
      let deleted = 0;
      for (const [tenantId, days] of byTenant) {
        const removed = await sql.query<{ n: number }>(
          `WITH gone AS (DELETE FROM iot_telemetry WHERE tenant_id = $1 AND ts < $2 RETURNING 1)
           SELECT count(*)::int AS n FROM gone`,
          [tenantId, new Date(now.getTime() - days * DAY_MS).toISOString()],
        );
        deleted += removed.rows[0]!.n;
        const cutoff = new Date(now.getTime() - days * DAY_MS).toISOString();
        await sql.query(
          `DELETE FROM iot_meter_daily WHERE tenant_id = $1 AND day < ($2::timestamptz AT TIME ZONE 'UTC')::date - 1`,
          [tenantId, cutoff],
        );
        await sql.query(
          `DELETE FROM iot_meter_monthly WHERE tenant_id = $1
              AND month < date_trunc('month', ($2::timestamptz AT TIME ZONE 'UTC')::date - 1)::date`,
          [tenantId, cutoff],
        );
      }
      return { dropped, deleted };
    });
    for (const name of result.dropped) this.options.onDropped?.(name);
    return result;
  }
}
