// The report benchmark's data: the ingest benchmark's tenant (demo, its devices of the three-value
// bench product, created by the server's own migrate/seed/credential code), plus a stretch of
// stored readings in the real iot_telemetry table, written in SQL (generate_series) for speed.
import pg from 'pg';
import { BENCH_KEYS, prepareDevices } from '@shuili/test-support/ingest-data';
import { openTarget, type Target } from '@shuili/test-support/database-target';

export interface ReadingsPlan {
  devices: number;
  /** Instants per device; at each instant a device reports every key of BENCH_KEYS. */
  instants: number;
  /** Minutes between two instants of one device. */
  stepMinutes: number;
}

export interface PreparedReadings {
  tenantId: string;
  /** The bench devices' ids, ascending. */
  deviceIds: string[];
  keys: readonly string[];
  /** The first and last instant of every device's readings. */
  first: Date;
  last: Date;
  /** Rows in iot_telemetry (a reading is one key of one device at one instant). */
  rows: number;
  /** Seconds spent writing the readings, and analysing them (PostgreSQL only). */
  loadSeconds: number;
  analyseSeconds: number;
}

/** About this many rows per INSERT: large enough to be fast, small enough for PGlite's memory. */
const ROWS_PER_STATEMENT = 500_000;

/**
 * Migrates and seeds the database and creates the devices as the ingest benchmark does, then
 * writes `instants` readings of every key per device, the last one at the current minute. The
 * rows go in arrival order (instant by instant, every device at each), as ingestion would store
 * them, so one device's readings are spread over the table as they are in production.
 */
export async function prepareReadings(
  target: Target,
  plan: ReadingsPlan,
): Promise<PreparedReadings> {
  await prepareDevices(target, plan.devices);
  const db = await openTarget(target, 2);
  try {
    const stepMs = plan.stepMinutes * 60_000;
    const last = new Date(Math.floor(Date.now() / stepMs) * stepMs);
    const first = new Date(last.getTime() - (plan.instants - 1) * stepMs);
    const { tenantId, deviceIds } = await db.system(async (sql) => {
      const tenant = await sql.query<{ id: string }>(
        `SELECT id::text FROM tenant WHERE tenant_code = 'demo'`,
      );
      const tenantId = tenant.rows[0]!.id;
      const devices = await sql.query<{ id: string }>(
        `SELECT id::text FROM iot_device WHERE tenant_id = $1 ORDER BY id`,
        [tenantId],
      );
      // The month partitions the readings fall in (the migration made the months around now).
      for (let at = first.getTime(); at <= last.getTime() + 32 * 86_400_000; at += 28 * 86_400_000)
        await sql.query('SELECT iot_telemetry_partition($1::timestamptz)', [
          new Date(Math.min(at, last.getTime())).toISOString(),
        ]);
      return { tenantId, deviceIds: devices.rows.map((row) => row.id) };
    });
    const loadStarted = performance.now();
    const perStatement = Math.max(
      1,
      Math.floor(ROWS_PER_STATEMENT / (deviceIds.length * BENCH_KEYS.length)),
    );
    for (let from = 0; from < plan.instants; from += perStatement) {
      const count = Math.min(perStatement, plan.instants - from);
      // Smooth daily-looking curves around each key's level, different per device: values a
      // chart would show, deterministic so every run stores the same readings.
      await db.system((sql) =>
        sql.query(
          `INSERT INTO iot_telemetry (tenant_id, device_id, key, ts, value)
           SELECT $1::bigint, d.id, k.key, t.ts,
                  round((k.level * (1 + 0.2 * sin(extract(epoch FROM t.ts) / 13751.0 + d.id)
                                      + 0.05 * cos(extract(epoch FROM t.ts) / 600.0 * d.id)))::numeric, 3)::float8
             FROM generate_series($2::timestamptz, $3::timestamptz, make_interval(mins => $4)) AS t(ts)
            CROSS JOIN unnest($5::bigint[]) AS d(id)
            CROSS JOIN unnest($6::text[], $7::float8[]) AS k(key, level)
            ORDER BY t.ts, d.id, k.key`,
          [
            tenantId,
            new Date(first.getTime() + from * stepMs).toISOString(),
            new Date(first.getTime() + (from + count - 1) * stepMs).toISOString(),
            plan.stepMinutes,
            deviceIds,
            [...BENCH_KEYS],
            [2, 120, 0.3],
          ],
        ),
      );
    }
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    const analyseStarted = performance.now();
    // PostgreSQL's autovacuum soon vacuums (insert threshold) and analyses the partition after
    // this many inserts; PGlite runs without autovacuum and the server never does either.
    if (target.kind === 'postgres') await vacuumAnalyse(target.url);
    const analyseSeconds = (performance.now() - analyseStarted) / 1000;
    return {
      tenantId,
      deviceIds,
      keys: BENCH_KEYS,
      first,
      last,
      rows: deviceIds.length * BENCH_KEYS.length * plan.instants,
      loadSeconds,
      analyseSeconds,
    };
  } finally {
    await db.close();
  }
}

/** VACUUM cannot run inside a transaction (every statement of the Database layer is in one). */
async function vacuumAnalyse(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // Autovacuum works on the leaf partitions; a plain ANALYZE covers the other tables.
    const { rows } = await client.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'iot_telemetry'::regclass`,
    );
    for (const { name } of rows) await client.query(`VACUUM (ANALYZE) ${name}`);
    await client.query('ANALYZE');
  } finally {
    await client.end();
  }
}
