import type { TelemetryBucket } from '@shuili/contract';
import type { Sql } from '../../../db/database';
import { rollupServes, splitHours } from './hourly-rollup';

/** Reads of stored telemetry; every call runs in the caller's tenant context (RLS). */

export interface DeviceModelRow {
  id: string;
  device_no: string;
  device_name: string | null;
  thing_model: unknown;
  device_kind: string | null;
}

export interface ReadingRow {
  device_id: string;
  key: string;
  ts: Date;
  value: number | null;
  text_value: string | null;
}

export interface AggregateRow {
  device_id: string;
  key: string;
  bucket: Date;
  avg: number | null;
  min: number | null;
  max: number | null;
  sum: number | null;
  count: number;
}

/**
 * One device's key in the data report: its buckets column by column, in time order (`at`: the
 * bucket's start, epoch ms). `increase` is null for keys that are no counter.
 */
export interface ReportSeriesRow {
  device_id: string;
  key: string;
  points: {
    at: number[];
    avg: Array<number | null>;
    min: Array<number | null>;
    max: Array<number | null>;
    count: number[];
    sum: Array<number | null>;
    increase: Array<number | null>;
  };
}

export interface StatRow {
  accepted: string;
  unknown_keys: string;
  wrong_type: string;
  out_of_range: string;
  bad_payload: string;
  bad_time: string;
  last_problem: string | null;
  last_problem_at: Date | null;
  last_accepted_at: Date | null;
}

/** The tenant of the transaction (RLS reads the same setting). */
const TENANT = `nullif(current_setting('app.tenant_id', true), '')::bigint`;

export const telemetryQueryRepo = {
  async devices(sql: Sql, deviceIds: string[]): Promise<DeviceModelRow[]> {
    const { rows } = await sql.query<DeviceModelRow>(
      `SELECT d.id::text AS id, d.device_no, d.device_name, p.thing_model, p.device_kind
         FROM iot_device d LEFT JOIN iot_product p ON p.id = d.product_id
        WHERE d.id = ANY($1::bigint[])`,
      [deviceIds],
    );
    return rows;
  },

  async latest(sql: Sql, deviceId: string): Promise<ReadingRow[]> {
    const { rows } = await sql.query<ReadingRow>(
      `SELECT device_id::text AS device_id, key, ts, value, text_value
         FROM iot_telemetry_latest WHERE tenant_id = ${TENANT} AND device_id = $1`,
      [deviceId],
    );
    return rows;
  },

  async countReadings(
    sql: Sql,
    deviceIds: string[],
    keys: string[],
    start: Date,
    end: Date,
  ): Promise<number> {
    const { rows } = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM iot_telemetry
        WHERE tenant_id = ${TENANT} AND device_id = ANY($1::bigint[]) AND key = ANY($2::text[])
          AND ts >= $3 AND ts <= $4`,
      [deviceIds, keys, start.toISOString(), end.toISOString()],
    );
    return rows[0]!.n;
  },

  /** Readings newest first (ties by device and key, so pages never overlap). */
  async readings(
    sql: Sql,
    deviceIds: string[],
    keys: string[],
    start: Date,
    end: Date,
    limit: number,
    offset: number,
  ): Promise<ReadingRow[]> {
    const { rows } = await sql.query<ReadingRow>(
      `SELECT device_id::text AS device_id, key, ts, value, text_value FROM iot_telemetry
        WHERE tenant_id = ${TENANT} AND device_id = ANY($1::bigint[]) AND key = ANY($2::text[])
          AND ts >= $3 AND ts <= $4
        ORDER BY ts DESC, device_id, key LIMIT $5 OFFSET $6`,
      [deviceIds, keys, start.toISOString(), end.toISOString(), limit, offset],
    );
    return rows;
  },

  /**
   * Aggregates per bucket; buckets are cut in `timeZone` (a day is the tenant's day). Whole hours
   * come from the hourly rollup when its UTC hours fit the zone's buckets, and only the partial
   * hours at the range's edges from the readings: a device's week is 504 rollup rows for three
   * keys instead of ~10,000 readings, each on its own page of the month partition.
   */
  async aggregate(
    sql: Sql,
    deviceIds: string[],
    keys: string[],
    start: Date,
    end: Date,
    bucket: TelemetryBucket,
    timeZone: string,
  ): Promise<AggregateRow[]> {
    const hours = rollupServes(bucket, timeZone, start, end) ? splitHours(start, end) : undefined;
    if (!hours) return aggregateReadings(sql, deviceIds, keys, start, end, bucket, timeZone);
    const { rows } = await sql.query<AggregateRow>(
      `WITH parts AS (${hourlyParts(false)})
       -- Devices in id order (the text of the ids would put 835 before 84).
       SELECT device_id::text AS device_id, key, date_trunc($7, hour, $8) AS bucket,
              sum(sum) / nullif(sum(n), 0) AS avg, min(min) AS min, max(max) AS max,
              sum(sum) AS sum, sum(n)::int AS count
         FROM parts
        GROUP BY device_id, key, bucket
        ORDER BY bucket, parts.device_id, key`,
      hourlyParams(deviceIds, keys, hours, start, end, bucket, timeZone),
    );
    return rows;
  },

  /**
   * The data report's aggregates: aggregate's buckets, one row per device and key with its
   * buckets as one JSON array in time order (150 series of 720 hours are 150 rows the database
   * writes and JSON.parse reads, not 108,000 rows decoded field by field), and for counter keys
   * (COUNTER_FACTORS) each bucket's increase. An increase is read off the hours' first and last
   * readings (migration 015): the step into an hour from the previous hour's last reading plus
   * the climb inside it; a reading below the one before is a reset, counted from zero. The
   * steps run over the whole range, so the buckets' increases add up to the range's.
   */
  async reportAggregate(
    sql: Sql,
    deviceIds: string[],
    keys: string[],
    counterKeys: string[],
    start: Date,
    end: Date,
    bucket: Exclude<TelemetryBucket, 'minute'>,
    timeZone: string,
  ): Promise<ReportSeriesRow[]> {
    const hours = rollupServes(bucket, timeZone, start, end) ? splitHours(start, end) : undefined;
    // A month of 150 hourly series sorts in memory rather than in files (this transaction only).
    await sql.query(`SET LOCAL work_mem = '64MB'`);
    // Each bucket as [at (epoch ms), avg, min, max, count, sum, increase], in time order.
    const series = (buckets: string) => `
       SELECT device_id::text AS device_id, key,
              json_agg(json_build_array(at, avg, min, max, count, sum, increase) ORDER BY at) AS points
         FROM (${buckets}) b
        GROUP BY b.device_id, key
        ORDER BY b.device_id, key`;
    // date_part answers a double (extract a numeric, whose arithmetic costs more per row).
    const epochMs = (at: string) => `date_part('epoch', ${at}) * 1000`;
    const grouped = (bucketAt: string, zoneAt: string) => `
         SELECT device_id, key, ${epochMs(`date_trunc(${bucketAt}, hour, ${zoneAt})`)} AS at,
                sum(sum) / nullif(sum(n), 0) AS avg, min(min) AS min, max(max) AS max,
                sum(n)::int AS count, sum(sum) AS sum, sum(increase) AS increase
           FROM steps
          GROUP BY device_id, key, 3`;
    let rows: Array<{ device_id: string; key: string; points: ReportPoint[] }>;
    if (!hours) {
      // Each reading is its own part: the same steps over the readings themselves.
      ({ rows } = await sql.query(
        `WITH parts AS (
           SELECT device_id, key, ts AS hour, 1 AS n, value AS sum, value AS min, value AS max,
                  value AS first_value, value AS last_value
             FROM iot_telemetry
            WHERE tenant_id = ${TENANT} AND device_id = ANY($1::bigint[]) AND key = ANY($2::text[])
              AND ts >= $3 AND ts <= $4 AND value IS NOT NULL),
         steps AS (${counterSteps('$5')})
         ${series(grouped('$6', '$7'))}`,
        [deviceIds, keys, start.toISOString(), end.toISOString(), counterKeys, bucket, timeZone],
      ));
    } else {
      // Hour buckets of a whole-hour zone are the rollup's hours themselves: nothing to group
      // (and no bucket or zone parameter: $1-$6 are the parts', $7 the counters).
      const params = hourlyParams(deviceIds, keys, hours, start, end, bucket, timeZone);
      const identity = bucket === 'hour';
      const buckets = identity
        ? `SELECT device_id, key, ${epochMs('hour')} AS at, sum / nullif(n, 0) AS avg, min, max,
                  n AS count, sum, increase FROM steps`
        : grouped('$7', '$8');
      ({ rows } = await sql.query(
        `WITH parts AS (${hourlyParts(true)}),
         steps AS (${counterSteps(identity ? '$7' : '$9')})
         ${series(buckets)}`,
        [...params.slice(0, identity ? 6 : 8), counterKeys],
      ));
    }
    return rows.map((row) => ({
      device_id: row.device_id,
      key: row.key,
      points: columns(row.points),
    }));
  },

  async stat(sql: Sql, deviceId: string): Promise<StatRow | undefined> {
    const { rows } = await sql.query<StatRow>(
      `SELECT accepted, unknown_keys, wrong_type, out_of_range, bad_payload, bad_time,
              last_problem, last_problem_at, last_accepted_at
         FROM iot_ingest_stat WHERE tenant_id = ${TENANT} AND device_id = $1`,
      [deviceId],
    );
    return rows[0];
  },
};

/** Per hour of a range: `n, sum, min, max` (and, with ends, the first and last reading). */
function hourlyParts(withEnds: boolean): string {
  const rollupEnds = withEnds ? ', first_value, last_value' : '';
  const readingEnds = withEnds
    ? `,
                (array_agg(value ORDER BY ts) FILTER (WHERE value IS NOT NULL))[1],
                (array_agg(value ORDER BY ts DESC) FILTER (WHERE value IS NOT NULL))[1]`
    : '';
  // Whole UTC hours from the rollup, the partial hours at the range's edges from the readings.
  const edge = (from: string, to: string) => `
         SELECT device_id, key, date_trunc('hour', ts, 'UTC'), count(value)::int, sum(value),
                min(value), max(value)${readingEnds}
           FROM iot_telemetry
          WHERE tenant_id = ${TENANT} AND device_id = ANY($1::bigint[]) AND key = ANY($2::text[])
            AND ts >= ${from} AND ts ${to}
          GROUP BY 1, 2, 3`;
  return `
         SELECT device_id, key, hour, n, sum, min, max${rollupEnds} FROM iot_telemetry_hourly
          WHERE tenant_id = ${TENANT} AND device_id = ANY($1::bigint[]) AND key = ANY($2::text[])
            AND hour >= $3 AND hour < $4
         UNION ALL${edge('$5', '< $3')}
         UNION ALL${edge('$4', '<= $6')}`;
}

/** The parameters of hourlyParts ($1-$6) and the bucket and zone ($7, $8). */
function hourlyParams(
  deviceIds: string[],
  keys: string[],
  hours: { fullFrom: Date; fullTo: Date },
  start: Date,
  end: Date,
  bucket: TelemetryBucket,
  timeZone: string,
): unknown[] {
  return [
    deviceIds,
    keys,
    hours.fullFrom.toISOString(),
    hours.fullTo.toISOString(),
    start.toISOString(),
    end.toISOString(),
    bucket,
    timeZone,
  ];
}

/**
 * A counter's increase per part (an hour, or a reading): the step from the previous part's last
 * value (a drop is a reset: the new value counted from zero) plus the climb inside the part (a
 * minimum below the first value is a reset inside it: the climb to the maximum, then from zero to
 * the last). `counters` is the parameter of the counter keys; other keys get none.
 */
const counterSteps = (counters: string) => `
  SELECT device_id, key, hour, n, sum, min, max,
         CASE WHEN key = ANY(${counters}::text[]) AND first_value IS NOT NULL THEN
           CASE WHEN lag(last_value) OVER w IS NULL THEN 0
                WHEN first_value >= lag(last_value) OVER w THEN first_value - lag(last_value) OVER w
                ELSE first_value END
           + CASE WHEN min < first_value THEN (max - first_value) + last_value
                  ELSE last_value - first_value END
         END AS increase
    FROM parts
  -- Sorted once, by what the report groups and orders by too (no second sort).
  WINDOW w AS (PARTITION BY device_id, key ORDER BY hour)`;

/** A bucket as the report's SQL writes it: [at, avg, min, max, count, sum, increase]. */
type ReportPoint = [
  number,
  number | null,
  number | null,
  number | null,
  number,
  number | null,
  number | null,
];

/** A series' buckets column by column. */
function columns(points: ReportPoint[]): ReportSeriesRow['points'] {
  const out: ReportSeriesRow['points'] = {
    at: new Array<number>(points.length),
    avg: new Array<number | null>(points.length),
    min: new Array<number | null>(points.length),
    max: new Array<number | null>(points.length),
    count: new Array<number>(points.length),
    sum: new Array<number | null>(points.length),
    increase: new Array<number | null>(points.length),
  };
  points.forEach(([at, avg, min, max, count, sum, increase], i) => {
    out.at[i] = at;
    out.avg[i] = avg;
    out.min[i] = min;
    out.max[i] = max;
    out.count[i] = count;
    out.sum[i] = sum;
    out.increase[i] = increase;
  });
  return out;
}

/** Aggregates straight from the readings (minute buckets, zones off by part of an hour). */
async function aggregateReadings(
  sql: Sql,
  deviceIds: string[],
  keys: string[],
  start: Date,
  end: Date,
  bucket: TelemetryBucket,
  timeZone: string,
): Promise<AggregateRow[]> {
  const { rows } = await sql.query<AggregateRow>(
    `SELECT device_id::text AS device_id, key, date_trunc($5, ts, $6) AS bucket,
            avg(value) AS avg, min(value) AS min, max(value) AS max, sum(value) AS sum,
            count(value)::int AS count
       FROM iot_telemetry
      WHERE tenant_id = ${TENANT} AND device_id = ANY($1::bigint[]) AND key = ANY($2::text[])
        AND ts >= $3 AND ts <= $4
      GROUP BY device_id, key, bucket
      ORDER BY bucket, iot_telemetry.device_id, key`,
    [deviceIds, keys, start.toISOString(), end.toISOString(), bucket, timeZone],
  );
  return rows;
}
