import { RAIN_WINDOWS, rainWindowKey, type RainSums } from '@shuili/contract';
import type { Sql } from '../../../db/database';
import { NO_POINTS, type SeriesPoints } from '../report/report-series';

const HOUR_MS = 3_600_000;
/** The widest window: readings older than this never count. */
const WIDEST_MS = Math.max(...RAIN_WINDOWS) * HOUR_MS;
/** How far back a counter's last reading before the window is looked for (its base). */
const COUNTER_BASE_MS = 48 * HOUR_MS;
/** The caller's tenant, so the telemetry's primary key (tenant, device, key, ts) serves reads. */
const TENANT = `nullif(current_setting('app.tenant_id', true), '')::bigint`;

/** The keys a station's rain is read from (the flood area's `rainSource` setting). */
export const RAIN_KEYS = { interval: 'rainfall', counter: 'rainfallTotal' } as const;
export type RainSource = keyof typeof RAIN_KEYS;

/** A reading at an instant (epoch ms). */
export interface RainPoint {
  ms: number;
  value: number;
}

/**
 * The rain each reading adds, in time order. Interval rain is the rain since the previous
 * reading as reported. A cumulative counter adds its step from the reading before (`base`: the
 * last one before the window, else the first reading adds nothing, as nobody knows where it
 * started); a drop is a reset, so the new value is what fell since it was zero. A reading
 * repeated at the same instant counts once (storage keeps one per instant; so does this).
 */
export function rainAmounts(
  points: RainPoint[],
  source: RainSource,
  base?: RainPoint,
): RainPoint[] {
  const sorted = [...points].sort((a, b) => a.ms - b.ms);
  const amounts: RainPoint[] = [];
  let previous = base?.value;
  let lastMs = base?.ms ?? Number.NEGATIVE_INFINITY;
  for (const point of sorted) {
    if (point.ms === lastMs) continue;
    lastMs = point.ms;
    if (source === 'interval') {
      amounts.push({ ms: point.ms, value: Math.max(0, point.value) });
      continue;
    }
    const step =
      previous === undefined ? 0 : point.value >= previous ? point.value - previous : point.value;
    previous = point.value;
    amounts.push({ ms: point.ms, value: Math.max(0, step) });
  }
  return amounts;
}

/**
 * Rain in each window up to `at` (readings in (at − window, at]), mm to 0.1. The windows are
 * nested and added up from the newest reading backwards in one running total, so a wider
 * window is the narrower one plus more rain, never less, however the decimals fall.
 */
export function windowSums(amounts: readonly RainPoint[], at: number): RainSums {
  const newestFirst = amounts.filter((one) => one.ms <= at).sort((a, b) => b.ms - a.ms);
  const sums = {} as RainSums;
  let total = 0;
  let next = 0;
  for (const hours of RAIN_WINDOWS) {
    const from = at - hours * HOUR_MS;
    while (next < newestFirst.length && newestFirst[next]!.ms > from) {
      total += newestFirst[next]!.value;
      next += 1;
    }
    sums[rainWindowKey(hours)] = Math.round(total * 10) / 10;
  }
  return sums;
}

/** A station and where its rain comes from. */
export interface RainStation {
  id: string;
  source: RainSource;
}

/**
 * Each station's rolling sums at `at` from its stored readings (tenant context): its interval
 * rain or its counter's steps over the last 24 hours, and a counter's last reading before them.
 */
export async function rainSumsAt(
  sql: Sql,
  stations: readonly RainStation[],
  at: Date,
): Promise<Map<string, RainSums>> {
  const out = new Map<string, RainSums>();
  if (stations.length === 0) return out;
  const { rows } = await sql.query<{ device_id: string; key: string; ms: number; value: number }>(
    `SELECT device_id::text AS device_id, key, date_part('epoch', ts) * 1000 AS ms, value
       FROM iot_telemetry
      WHERE tenant_id = ${TENANT} AND device_id = ANY($1::bigint[]) AND key = ANY($2::text[])
        AND ts > $3::timestamptz AND ts <= $4::timestamptz AND value IS NOT NULL`,
    [
      stations.map((station) => station.id),
      Object.values(RAIN_KEYS),
      new Date(at.getTime() - WIDEST_MS).toISOString(),
      at.toISOString(),
    ],
  );
  const counters = stations.filter((station) => station.source === 'counter');
  const bases = new Map<string, RainPoint>();
  if (counters.length > 0) {
    const base = await sql.query<{ device_id: string; ms: number; value: number }>(
      `SELECT DISTINCT ON (device_id) device_id::text AS device_id,
              date_part('epoch', ts) * 1000 AS ms, value
         FROM iot_telemetry
        WHERE tenant_id = ${TENANT} AND device_id = ANY($1::bigint[]) AND key = $2
          AND ts > $3::timestamptz AND ts <= $4::timestamptz AND value IS NOT NULL
        ORDER BY device_id, ts DESC`,
      [
        counters.map((station) => station.id),
        RAIN_KEYS.counter,
        new Date(at.getTime() - WIDEST_MS - COUNTER_BASE_MS).toISOString(),
        new Date(at.getTime() - WIDEST_MS).toISOString(),
      ],
    );
    for (const row of base.rows) bases.set(row.device_id, { ms: row.ms, value: row.value });
  }
  for (const station of stations) {
    const key = RAIN_KEYS[station.source];
    const points = rows
      .filter((row) => row.device_id === station.id && row.key === key)
      .map((row) => ({ ms: row.ms, value: row.value }));
    out.set(
      station.id,
      windowSums(rainAmounts(points, station.source, bases.get(station.id)), at.getTime()),
    );
  }
  return out;
}

/**
 * A rolling sum over a report's range (data report, AreaDef.derivedFactors): the rain of the
 * `hours` up to each stored rain reading in [start, end], per reading (`raw`) or as each
 * bucket's mean, minimum and maximum (cut in the tenant's zone): a day's maximum 3 h rain is
 * the storm's peak. Stations go by their `rainSource` setting, like the warnings.
 */
export async function rollingRainSeries(
  sql: Sql,
  stations: readonly RainStation[],
  hours: number,
  start: Date,
  end: Date,
  bucket: 'raw' | 'hour' | 'day' | 'month',
  timeZone: string,
): Promise<Map<string, SeriesPoints>> {
  const out = new Map<string, SeriesPoints>();
  if (stations.length === 0) return out;
  const windowMs = hours * HOUR_MS;
  const { rows } = await sql.query<{ device_id: string; key: string; ms: number; value: number }>(
    `SELECT device_id::text AS device_id, key, date_part('epoch', ts) * 1000 AS ms, value
       FROM iot_telemetry
      WHERE tenant_id = ${TENANT} AND device_id = ANY($1::bigint[]) AND key = ANY($2::text[])
        AND ts > $3::timestamptz AND ts <= $4::timestamptz AND value IS NOT NULL
      ORDER BY device_id, key, ts`,
    [
      stations.map((station) => station.id),
      Object.values(RAIN_KEYS),
      new Date(start.getTime() - windowMs - COUNTER_BASE_MS).toISOString(),
      end.toISOString(),
    ],
  );
  for (const station of stations) {
    const key = RAIN_KEYS[station.source];
    const amounts = rainAmounts(
      rows
        .filter((row) => row.device_id === station.id && row.key === key)
        .map((row) => ({ ms: row.ms, value: row.value })),
      station.source,
    );
    // Each reading's window by a sliding sum over the amounts in time order.
    const points: RainPoint[] = [];
    let total = 0;
    let from = 0;
    for (const amount of amounts) {
      total += amount.value;
      while (amounts[from]!.ms <= amount.ms - windowMs) total -= amounts[from++]!.value;
      if (amount.ms >= start.getTime())
        points.push({ ms: amount.ms, value: Math.round(total * 10) / 10 });
    }
    out.set(station.id, await bucketed(sql, points, bucket, timeZone));
  }
  return out;
}

/** Points as series columns, per reading or aggregated per bucket of the tenant's calendar. */
async function bucketed(
  sql: Sql,
  points: readonly RainPoint[],
  bucket: 'raw' | 'hour' | 'day' | 'month',
  timeZone: string,
): Promise<SeriesPoints> {
  const series = structuredClone(NO_POINTS);
  const push = (at: number, values: number[]) => {
    const sum = values.reduce((a, b) => a + b, 0);
    series.at.push(at);
    series.avg.push(sum / values.length);
    series.min.push(Math.min(...values));
    series.max.push(Math.max(...values));
    series.count.push(values.length);
    series.sum.push(sum);
    series.increase.push(null);
  };
  if (bucket === 'raw') {
    for (const point of points) push(point.ms, [point.value]);
    return series;
  }
  if (points.length === 0) return series;
  const { rows } = await sql.query<{ at: number }>(
    `SELECT date_part('epoch', date_trunc($1, to_timestamp(ms / 1000.0), $2)) * 1000 AS at
       FROM unnest($3::double precision[]) WITH ORDINALITY AS p(ms, n) ORDER BY n`,
    [bucket, timeZone, points.map((point) => point.ms)],
  );
  let current: number[] = [];
  let currentAt = rows[0]!.at;
  rows.forEach((row, index) => {
    if (row.at !== currentAt) {
      push(currentAt, current);
      current = [];
      currentAt = row.at;
    }
    current.push(points[index]!.value);
  });
  push(currentAt, current);
  return series;
}
