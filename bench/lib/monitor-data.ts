// The monitor benchmark's data: a database migrated and seeded by the server's own code, then in
// tenant demo (signed in as its admin, every zone) a district of `devices` devices of the seeded
// products, `valves` of them irrigation valve controllers, with the latest value of every property
// of their thing models, open and cleared alarms, recent operation records, and for `report`
// valves a stretch of readings (flow, pressure, cumulative volume) in iot_telemetry, written in
// SQL (generate_series) for speed, as bench/lib/report-data.ts does.
import pg from 'pg';
import { irrigationArea } from '@shuili/contract';
import { loadConfig } from '../../apps/server/src/config';
import type { Sql } from '../../apps/server/src/db/database';
import { migrate } from '../../apps/server/src/db/migrate';
import { seed } from '../../apps/server/src/db/seed';
import { openTarget, type Target } from '@shuili/test-support/database-target';

export interface MonitorDataPlan {
  /** Devices of demo in all (the workbench overview's 10,000), the seeded demo devices included. */
  devices: number;
  /** Of them, irrigation valve controllers (the area list's 5,000), seeded ones included. */
  valves: number;
  /** Valves with stored readings, and how many days of them, every `stepMinutes`. */
  report: { devices: number; days: number; stepMinutes: number } | undefined;
}

export interface MonitorData {
  tenantId: string;
  /** The irrigation area's devices (ids, ascending) and the whole tenant's count. */
  valveIds: string[];
  devices: number;
  latestRows: number;
  openAlarms: number;
  commands: number;
  /** The valves with readings (ids ascending), their keys and range, the rows written. */
  readings?: {
    deviceIds: string[];
    keys: readonly string[];
    first: Date;
    last: Date;
    rows: number;
  };
  seconds: { devices: number; readings: number; analyse: number };
}

/** The factors a report of the irrigation area asks for (its declared report factors). */
export const REPORT_KEYS = irrigationArea.reportFactors;

/**
 * About this many readings per INSERT: large enough to be fast, small enough for PGlite and for
 * the server's 30 s statement timeout on a busy machine (the rollup triggers run in the statement).
 */
const ROWS_PER_STATEMENT = 100_000;

/**
 * Prepares the database and closes it again (PGlite belongs to one process): the server and the
 * peer open it afterwards.
 */
export async function prepareMonitorData(
  target: Target,
  plan: MonitorDataPlan,
): Promise<MonitorData> {
  const db = await openTarget(target, 2);
  const seconds = { devices: 0, readings: 0, analyse: 0 };
  try {
    await migrate(db);
    // No simulated past: its storm and silt section would raise warnings at the server's start
    // that the peers (on PGlite, a copy of the folder taken before) never see.
    await seed(db, loadConfig({ demoHistoryDays: 0 }));
    let started = performance.now();
    const district = await db.system((sql) => fillDistrict(sql, plan));
    seconds.devices = (performance.now() - started) / 1000;
    started = performance.now();
    const readings = plan.report
      ? await writeReadings(db, district.tenantId, district.valveIds, plan.report)
      : undefined;
    seconds.readings = (performance.now() - started) / 1000;
    await db.close();
    started = performance.now();
    // As autovacuum would soon after these inserts (VACUUM cannot run in a transaction); PGlite
    // runs without autovacuum and the server never analyses, so it stays as it is.
    if (target.kind === 'postgres') await vacuumAnalyse(target.url);
    seconds.analyse = (performance.now() - started) / 1000;
    return { ...district, ...(readings ? { readings } : {}), seconds };
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
}

/** Demo's devices, latest values, alarms and commands. */
async function fillDistrict(sql: Sql, plan: MonitorDataPlan) {
  const { rows: tenant } = await sql.query<{ id: string }>(
    `SELECT id::text FROM tenant WHERE tenant_code = 'demo'`,
  );
  const tenantId = tenant[0]!.id;
  // The seeded demo devices count: the district has `devices` in all, `valves` of them valves.
  const { rows: counts } = await sql.query<{ valves: number; devices: number }>(
    `SELECT count(*) FILTER (WHERE p.device_kind = ANY($2))::int AS valves, count(*)::int AS devices
       FROM iot_device d JOIN iot_product p ON p.tenant_id = d.tenant_id AND p.id = d.product_id
      WHERE d.tenant_id = $1`,
    [tenantId, irrigationArea.kinds],
  );
  const newValves = Math.max(0, plan.valves - counts[0]!.valves);
  const newOthers = Math.max(0, plan.devices - counts[0]!.devices - newValves);
  // Valves and the other kinds arrive interleaved, as a district's devices are installed over
  // time, so one kind's page is spread over the table rather than packed. Each device has a
  // leaf zone of demo, its project, a position, a state and a last contact.
  await sql.query(
    `WITH valve AS (SELECT id FROM iot_product WHERE tenant_id = $1 AND device_kind = ANY($2)
                     ORDER BY id LIMIT 1),
          other AS (SELECT array_agg(id ORDER BY id) AS ids FROM iot_product
                     WHERE tenant_id = $1 AND NOT device_kind = ANY($2)),
          zone AS (SELECT array_agg(z.id ORDER BY z.id) AS ids FROM sys_zone z
                    WHERE z.tenant_id = $1
                      AND NOT EXISTS (SELECT 1 FROM sys_zone c WHERE c.zone_parent = z.id)),
          project AS (SELECT min(id) AS id FROM iot_project WHERE tenant_id = $1),
          n AS (SELECT i, i <= least($3::int, $4::int) * 2 AND i % 2 = 1
                         OR i > least($3::int, $4::int) * 2 AND $3::int > $4::int AS is_valve
                  FROM generate_series(1, $3::int + $4::int) AS i)
     INSERT INTO iot_device (tenant_id, device_no, device_name, product_id, project_id, zone_id,
                             lat, lng, install_address, install_date, status, online, last_seen)
     SELECT $1, 'MON-' || lpad(n.i::text, 6, '0'),
            CASE WHEN n.is_valve THEN 'Valve controller ' ELSE 'Station ' END || n.i,
            CASE WHEN n.is_valve THEN valve.id ELSE other.ids[1 + n.i % cardinality(other.ids)] END,
            project.id, zone.ids[1 + n.i % cardinality(zone.ids)],
            36.45 + (n.i % 173) * 0.0017, 116.8 + (n.i % 211) * 0.0019, 'Lateral ' || (n.i % 60),
            now() - interval '200 days',
            CASE WHEN n.i % 37 = 0 THEN 3 ELSE 0 END, n.i % 5 <> 0,
            now() - make_interval(secs => n.i % 3600)
       FROM n, valve, other, zone, project
      ORDER BY n.i`,
    [tenantId, irrigationArea.kinds, newValves, newOthers],
  );
  // The latest value of every property a device's thing model declares (numbers inside their
  // range, flood and silt levels below their warning lines, enums one of their options,
  // booleans 0 or 1), as ingestion keeps them.
  await sql.query(
    `INSERT INTO iot_telemetry_latest (tenant_id, device_id, key, ts, value)
     SELECT d.tenant_id, d.id, prop.j->>'key', coalesce(d.last_seen, now()),
            CASE prop.j->>'type'
              WHEN 'enum' THEN (prop.j->'options'->((d.id + prop.ord) % 2)::int->>'value')::float8
              WHEN 'boolean' THEN ((d.id + prop.ord) % 2)::float8
              ELSE round((CASE
                -- Below the default warning lines (4 m; dredging at 0.5 m): the server's station
                -- warnings would raise alarms at its start that the peers' copy has not.
                WHEN p.device_kind = 'flood_station' AND prop.j->>'key' = 'waterLevel'
                  THEN 1 + 2 * ((d.id * 7919 + prop.ord * 104729) % 1000) / 1000.0
                WHEN p.device_kind = 'silt_station' AND prop.j->>'key' = 'siltDepth'
                  THEN 0.05 + 0.3 * ((d.id * 7919 + prop.ord * 104729) % 1000) / 1000.0
                ELSE coalesce((prop.j->>'min')::float8, 0)
                     + (coalesce((prop.j->>'max')::float8, 100) - coalesce((prop.j->>'min')::float8, 0))
                       * (0.1 + 0.6 * ((d.id * 7919 + prop.ord * 104729) % 1000) / 1000.0)
              END)::numeric, CASE WHEN prop.j->>'type' = 'integer' THEN 0 ELSE 3 END)::float8
            END
       FROM iot_device d
       JOIN iot_product p ON p.tenant_id = d.tenant_id AND p.id = d.product_id
      CROSS JOIN LATERAL jsonb_array_elements(p.thing_model->'properties') WITH ORDINALITY AS prop(j, ord)
      WHERE d.tenant_id = $1 AND prop.j->>'type' <> 'string'
     ON CONFLICT (tenant_id, device_id, key) DO NOTHING`,
    [tenantId],
  );
  const devices = await sql.query<{ id: string; valve: boolean }>(
    `SELECT d.id::text, p.device_kind = ANY($2) AS valve
       FROM iot_device d JOIN iot_product p ON p.tenant_id = d.tenant_id AND p.id = d.product_id
      WHERE d.tenant_id = $1 ORDER BY d.id`,
    [tenantId, irrigationArea.kinds],
  );
  const latest = await sql.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM iot_telemetry_latest WHERE tenant_id = $1',
    [tenantId],
  );
  const allIds = devices.rows.map((row) => row.id);
  const valveIds = devices.rows.filter((row) => row.valve).map((row) => row.id);
  // One device in 50 has an alarm open (a quarter of them acknowledged), one in 25 a cleared one.
  const alarms = await sql.query<{ open: number }>(
    `WITH inserted AS (
       INSERT INTO iot_alarm_record (tenant_id, device_id, property_key, level, value, threshold,
                                     started_at, cleared_at, state, acknowledged_by, acknowledged_at)
       SELECT $1, d, 'pressure', (ARRAY['blue','yellow','orange','red'])[1 + i % 4], 1.2, 1.0,
              now() - make_interval(mins => i::int),
              CASE WHEN i % 3 = 0 THEN NULL ELSE now() - make_interval(mins => (i / 2)::int) END,
              CASE WHEN i % 3 = 0 THEN 'open' ELSE 'cleared' END,
              CASE WHEN i % 12 = 0 THEN 'admin' END,
              CASE WHEN i % 12 = 0 THEN now() - make_interval(mins => (i / 3)::int) END
         FROM unnest($2::bigint[]) WITH ORDINALITY AS u(d, i)
        WHERE i % 17 = 0 OR i % 50 = 0
       RETURNING state)
     SELECT count(*) FILTER (WHERE state = 'open')::int AS open FROM inserted`,
    [tenantId, allIds],
  );
  // The last day's operation records: valve commands, most answered.
  const commands = await sql.query<{ n: number }>(
    `WITH inserted AS (
     INSERT INTO iot_command (tenant_id, username, device_id, name, params, status, timeout_seconds,
                              expires_at, sent_at, acked_at, latency_ms, result, created_at)
     SELECT $1, 'admin', d, CASE WHEN i % 2 = 0 THEN 'openValve' ELSE 'closeValve' END,
            '{"channel":' || (1 + i % 4) || '}',
            CASE WHEN i % 20 = 0 THEN 'timeout' ELSE 'succeeded' END, 30,
            now() - make_interval(mins => i::int) + interval '30 seconds',
            now() - make_interval(mins => i::int), now() - make_interval(mins => i::int) + interval '2 seconds',
            2000, CASE WHEN i % 20 = 0 THEN NULL ELSE 'ok' END, now() - make_interval(mins => i::int)
       FROM unnest($2::bigint[]) WITH ORDINALITY AS u(d, i)
      WHERE i % 10 = 0
      RETURNING 1)
     SELECT count(*)::int AS n FROM inserted`,
    [tenantId, valveIds],
  );
  return {
    tenantId,
    valveIds,
    devices: allIds.length,
    latestRows: latest.rows[0]!.n,
    openAlarms: alarms.rows[0]!.open,
    commands: commands.rows[0]!.n,
  };
}

/**
 * Readings of the report's keys for the first `devices` valves, every `stepMinutes` over `days`
 * up to the current step, in arrival order (instant by instant, every device at each) as
 * ingestion stores them. Flow follows a daily irrigation pattern, pressure follows flow, and the
 * cumulative volume adds the flow up: values a chart would show, the same every run.
 */
async function writeReadings(
  db: Awaited<ReturnType<typeof openTarget>>,
  tenantId: string,
  valveIds: string[],
  report: NonNullable<MonitorDataPlan['report']>,
) {
  const deviceIds = valveIds.slice(0, report.devices);
  const stepMs = report.stepMinutes * 60_000;
  const instants = Math.round((report.days * 24 * 60) / report.stepMinutes);
  const last = new Date(Math.floor(Date.now() / stepMs) * stepMs);
  const first = new Date(last.getTime() - (instants - 1) * stepMs);
  await db.system(async (sql) => {
    // The month partitions the readings fall in (the migration made the months around now).
    for (let at = first.getTime(); at <= last.getTime() + 32 * 86_400_000; at += 28 * 86_400_000)
      await sql.query('SELECT iot_telemetry_partition($1::timestamptz)', [
        new Date(Math.min(at, last.getTime())).toISOString(),
      ]);
  });
  const perStatement = Math.max(
    1,
    Math.floor(ROWS_PER_STATEMENT / (deviceIds.length * REPORT_KEYS.length)),
  );
  for (let from = 0; from < instants; from += perStatement) {
    const count = Math.min(perStatement, instants - from);
    await db.system((sql) =>
      sql.query(
        `WITH r AS (
           SELECT t.ts, d.id,
                  -- m³/h: open from 06:00 to 18:00 UTC+8, a little different per device
                  greatest(0, 40 + (d.id % 7) * 3
                              + 25 * sin(extract(epoch FROM t.ts) / 3600.0 * pi() / 12 + d.id))
                    * (extract(hour FROM t.ts AT TIME ZONE 'Asia/Shanghai') BETWEEN 6 AND 17)::int AS flow,
                  extract(epoch FROM t.ts - $2::timestamptz) / 3600.0 AS hours
             FROM generate_series($3::timestamptz, $4::timestamptz, make_interval(mins => $5)) AS t(ts)
            CROSS JOIN unnest($6::bigint[]) AS d(id))
         INSERT INTO iot_telemetry (tenant_id, device_id, key, ts, value)
         SELECT $1::bigint, r.id, k.key, r.ts,
                round(CASE k.key
                        WHEN 'flow' THEN r.flow
                        WHEN 'pressure' THEN 0.18 + r.flow / 400.0
                        ELSE 1000 * (r.id % 13) + r.hours * 22
                      END::numeric, 3)::float8
           FROM r CROSS JOIN unnest($7::text[]) AS k(key)
          ORDER BY r.ts, r.id, k.key`,
        [
          tenantId,
          first.toISOString(),
          new Date(first.getTime() + from * stepMs).toISOString(),
          new Date(first.getTime() + (from + count - 1) * stepMs).toISOString(),
          report.stepMinutes,
          deviceIds,
          [...REPORT_KEYS],
        ],
      ),
    );
  }
  return {
    deviceIds,
    keys: REPORT_KEYS,
    first,
    last,
    rows: deviceIds.length * REPORT_KEYS.length * instants,
  };
}

/** VACUUM cannot run inside a transaction (every statement of the Database layer is in one). */
async function vacuumAnalyse(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // Autovacuum works on the leaf partitions; a plain VACUUM ANALYZE covers the other tables.
    const { rows } = await client.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'iot_telemetry'::regclass`,
    );
    for (const { name } of rows) await client.query(`VACUUM (ANALYZE) ${name}`);
    await client.query('VACUUM ANALYZE');
  } finally {
    await client.end();
  }
}
