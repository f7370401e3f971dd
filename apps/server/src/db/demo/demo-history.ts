import { AREAS, type ThingModel } from '@shuili/contract';
import { isDeviceKind, simulateHistory, type DeviceKind } from '@shuili/sim';
import type { Sql } from '../database';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Readings per INSERT: large enough to be quick, small enough for PGlite's memory. */
const ROWS_PER_STATEMENT = 20_000;

/** The kinds the monitoring areas cover: their screens chart, report and total the history. */
const AREA_KINDS = new Set<string>(AREAS.flatMap((area) => area.kinds));

/**
 * The keys of a kind that get a past: its areas' key, report and total factors (what the lists,
 * charts, reports and the water delivered read), and the sunshine that a weather station's daily
 * ET0 may use. The rest (radio signal, cabinet temperatures) start with the live simulation:
 * a month of every key would double the seed's time.
 */
function historyKeys(kind: string): Set<string> {
  const keys = new Set<string>(kind === 'weather_station' ? ['sunshineHours'] : []);
  for (const area of AREAS)
    if ((area.kinds as readonly string[]).includes(kind))
      for (const key of [...area.keyFactors, ...area.reportFactors, ...area.totalFactors])
        keys.add(key);
  return keys;
}
/**
 * Kinds read every hour: a weather station's day needs 20 hours of readings for its ET0, and a
 * fertigation program lasts two hours. The others change slowly or are totalled by their
 * counters: every two hours keeps the seed quick.
 */
const HOURLY_KINDS = new Set<string>(['weather_station', 'water_fertilizer']);
/** Runoff plots every quarter hour: a shower's hydrograph lasts an hour or two (its events). */
const QUARTER_HOURLY_KINDS = new Set<string>(['sediment_station']);

interface DemoDevice {
  id: string;
  device_kind: string;
  thing_model: ThingModel;
}

/**
 * The demo district's past `days` (its monitoring factors, historyKeys), hourly or two-hourly, as
 * its devices would have reported it (the simulator's
 * physics, packages/sim history.ts): the area screens' charts, data reports, daily ET0, water
 * delivered and the workbench show a month of a working district at first sight. Written once:
 * only when none of the area devices has a reading older than an hour (a fresh demo, or one that
 * has run its live simulation for a moment only). Readings go in as ingestion stores them, so the
 * hourly rollup and the meters (migrations 006, 016) follow from the triggers; each device's
 * latest values are its last reading unless it has reported since.
 */
export async function seedDemoHistory(sql: Sql, tenantId: string, days: number): Promise<number> {
  if (days <= 0) return 0;
  const { rows } = await sql.query<DemoDevice>(
    `SELECT d.id::text, p.device_kind, p.thing_model
       FROM iot_device d JOIN iot_product p ON p.tenant_id = d.tenant_id AND p.id = d.product_id
      WHERE d.tenant_id = $1 AND p.device_kind = ANY($2::text[])
      ORDER BY d.id`,
    [tenantId, [...AREA_KINDS]],
  );
  const devices = rows.flatMap((row) =>
    isDeviceKind(row.device_kind) ? [{ ...row, kind: row.device_kind as DeviceKind }] : [],
  );
  if (devices.length === 0) return 0;
  const to = Math.floor(Date.now() / 60_000) * 60_000;
  const from = to - days * DAY_MS;
  const old = await sql.query(
    `SELECT 1 FROM iot_telemetry
      WHERE tenant_id = $1 AND device_id = ANY($2::bigint[]) AND ts < $3 LIMIT 1`,
    [tenantId, devices.map((device) => device.id), new Date(to - HOUR_MS).toISOString()],
  );
  if (old.rows.length > 0) return 0;

  const history = simulateHistory({
    devices: devices.map((device) => ({
      id: device.id,
      kind: device.kind,
      thingModel: device.thing_model,
      everyMs: QUARTER_HOURLY_KINDS.has(device.kind)
        ? HOUR_MS / 4
        : HOURLY_KINDS.has(device.kind)
          ? HOUR_MS
          : 2 * HOUR_MS,
    })),
    from,
    to,
  });
  // The month partitions the readings fall in (the migrations made those around now).
  for (let at = from; at < to + 31 * DAY_MS; at += 28 * DAY_MS)
    await sql.query('SELECT iot_telemetry_partition($1::timestamptz)', [
      new Date(Math.min(at, to)).toISOString(),
    ]);

  const columns = { device: [] as string[], key: [] as string[], ts: [] as number[] };
  const values: Array<number | null> = [];
  const texts: Array<string | null> = [];
  let written = 0;
  const flush = async () => {
    if (columns.device.length === 0) return;
    await sql.query(
      `INSERT INTO iot_telemetry (tenant_id, device_id, key, ts, value, text_value)
       SELECT $1, d, k, to_timestamp(ms / 1000.0), v, x
         FROM unnest($2::bigint[], $3::text[], $4::double precision[], $5::double precision[],
                     $6::text[]) AS r(d, k, ms, v, x)
       ON CONFLICT DO NOTHING`,
      [tenantId, columns.device, columns.key, columns.ts, values, texts],
    );
    written += columns.device.length;
    columns.device = [];
    columns.key = [];
    columns.ts = [];
    values.length = 0;
    texts.length = 0;
  };
  const kinds = new Map(devices.map((device) => [device.id, historyKeys(device.kind)]));
  // Device by device, each in time order: the meters count each device's steps in one pass.
  for (const [deviceId, readings] of history) {
    const keys = kinds.get(deviceId)!;
    for (const reading of readings) {
      for (const [key, value] of Object.entries(reading.values)) {
        if (!keys.has(key)) continue;
        columns.device.push(deviceId);
        columns.key.push(key);
        columns.ts.push(reading.ts);
        if (typeof value === 'string') {
          values.push(null);
          texts.push(value);
        } else {
          values.push(typeof value === 'boolean' ? Number(value) : value);
          texts.push(null);
        }
      }
    }
    if (columns.device.length >= ROWS_PER_STATEMENT) await flush();
  }
  await flush();
  // Each device's last reading is its latest value, unless it has reported something newer.
  await sql.query(
    `INSERT INTO iot_telemetry_latest AS l (tenant_id, device_id, key, ts, value, text_value)
     SELECT DISTINCT ON (device_id, key) tenant_id, device_id, key, ts, value, text_value
       FROM iot_telemetry
      WHERE tenant_id = $1 AND device_id = ANY($2::bigint[]) AND ts >= $3
      ORDER BY device_id, key, ts DESC
     ON CONFLICT (tenant_id, device_id, key) DO UPDATE
        SET ts = EXCLUDED.ts, value = EXCLUDED.value, text_value = EXCLUDED.text_value
      WHERE l.ts < EXCLUDED.ts`,
    [tenantId, devices.map((device) => device.id), new Date(to - 2 * HOUR_MS).toISOString()],
  );
  return written;
}
