import type { Sql } from '../database';

const MINUTE_MS = 60_000;
/** The shortest demo past the storm is written into. */
const MIN_HISTORY_DAYS = 7;
/** The flood RTU's reporting step. */
const STEP_MS = 5 * MINUTE_MS;

/**
 * A rainstorm over the hills this afternoon: [station, hours it lasted until now, mm/h at each
 * hour, first to last]. FLOOD-RTU-01 took 72 mm in the last 3 hours (orange: 50 mm in 3 h),
 * FLOOD-RTU-02 at the storm's edge 56 mm over 10 hours (blue: 50 mm in 12 h).
 */
const STORMS: Array<[string, number[]]> = [
  ['FLOOD-RTU-01', [2, 5, 9, 30, 28, 14]],
  ['FLOOD-RTU-02', [4, 5, 6, 7, 8, 7, 6, 5, 4, 4]],
];

/** A silt station whose section is due for dredging: [station, dredging depth m]. */
const DREDGING: Array<[string, number]> = [['SILT-1-01', 0.15]];

/**
 * The flood and silt screens' first sight (after the demo's history, seed.ts): a storm's
 * 5-minute rain at two flood stations, so their rolling sums, the rainstorm warnings the
 * station check raises at start and the rain panels show a real event; and a silt station
 * whose dredging depth its bed has passed. Readings go in as ingestion stores them (the rollup
 * follows from the triggers); the history's own two-hourly rain stays, as more rain.
 */
export async function seedDemoFloodAndSilt(
  sql: Sql,
  tenantId: string,
  historyDays: number,
): Promise<void> {
  // A demo with a week of past or more (npm start: 30 days). The test servers' short past stays
  // quiet: warnings raised at their start would be in every test's alarm counts.
  if (historyDays < MIN_HISTORY_DAYS) return;
  const { rows } = await sql.query<{ id: string; device_no: string }>(
    'SELECT id::text, device_no FROM iot_device WHERE tenant_id = $1 AND device_no = ANY($2)',
    [tenantId, [...STORMS.map(([no]) => no), ...DREDGING.map(([no]) => no)]],
  );
  const idOf = new Map(rows.map((row) => [row.device_no, row.id]));
  const now = Math.floor(Date.now() / STEP_MS) * STEP_MS;
  const device: string[] = [];
  const ts: string[] = [];
  const value: number[] = [];
  for (const [no, hourly] of STORMS) {
    const id = idOf.get(no);
    if (!id) continue;
    const start = now - hourly.length * 60 * MINUTE_MS;
    for (let at = start + STEP_MS; at <= now; at += STEP_MS) {
      const mmPerHour =
        hourly[Math.min(hourly.length - 1, Math.floor((at - start - 1) / 3_600_000))]!;
      device.push(id);
      ts.push(new Date(at).toISOString());
      value.push(Math.round(mmPerHour * (STEP_MS / 3_600_000) * 10) / 10);
    }
  }
  if (device.length > 0) {
    await sql.query(
      `INSERT INTO iot_telemetry (tenant_id, device_id, key, ts, value)
       SELECT $1, d, 'rainfall', t, v
         FROM unnest($2::bigint[], $3::timestamptz[], $4::double precision[]) AS r(d, t, v)
       ON CONFLICT DO NOTHING`,
      [tenantId, device, ts, value],
    );
    await sql.query(
      `INSERT INTO iot_telemetry_latest AS l (tenant_id, device_id, key, ts, value)
       SELECT DISTINCT ON (d) $1, d, 'rainfall', t, v
         FROM unnest($2::bigint[], $3::timestamptz[], $4::double precision[]) AS r(d, t, v)
        ORDER BY d, t DESC
       ON CONFLICT (tenant_id, device_id, key) DO UPDATE
          SET ts = EXCLUDED.ts, value = EXCLUDED.value WHERE l.ts < EXCLUDED.ts`,
      [tenantId, device, ts, value],
    );
  }
  for (const [no, depth] of DREDGING) {
    const id = idOf.get(no);
    if (!id) continue;
    await sql.query(
      `INSERT INTO monitor_area_setting (tenant_id, device_id, setting_key, value, updated_by)
       VALUES ($1, $2, 'dredgingDepth', $3::jsonb, 'admin') ON CONFLICT DO NOTHING`,
      [tenantId, id, JSON.stringify(depth)],
    );
  }
}
