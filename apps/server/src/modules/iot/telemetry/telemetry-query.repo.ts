import type { TelemetryBucket } from '@shuili/contract';
import type { Sql } from '../../../db/database';
import { rollupServes, splitHours } from './hourly-rollup';

/** Reads of stored telemetry; every call runs in the caller's tenant context (RLS). */

export interface DeviceModelRow {
  id: string;
  device_no: string;
  device_name: string | null;
  thing_model: unknown;
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
      `SELECT d.id::text AS id, d.device_no, d.device_name, p.thing_model
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
      `WITH parts AS (
         SELECT device_id, key, hour, n, sum, min, max FROM iot_telemetry_hourly
          WHERE tenant_id = ${TENANT} AND device_id = ANY($1::bigint[]) AND key = ANY($2::text[])
            AND hour >= $3 AND hour < $4
         UNION ALL
         SELECT device_id, key, date_trunc('hour', ts, 'UTC'), count(value)::int, sum(value),
                min(value), max(value)
           FROM iot_telemetry
          WHERE tenant_id = ${TENANT} AND device_id = ANY($1::bigint[]) AND key = ANY($2::text[])
            AND ts >= $5 AND ts < $3
          GROUP BY 1, 2, 3
         UNION ALL
         SELECT device_id, key, date_trunc('hour', ts, 'UTC'), count(value)::int, sum(value),
                min(value), max(value)
           FROM iot_telemetry
          WHERE tenant_id = ${TENANT} AND device_id = ANY($1::bigint[]) AND key = ANY($2::text[])
            AND ts >= $4 AND ts <= $6
          GROUP BY 1, 2, 3)
       -- Devices in id order (the text of the ids would put 835 before 84).
       SELECT device_id::text AS device_id, key, date_trunc($7, hour, $8) AS bucket,
              sum(sum) / nullif(sum(n), 0) AS avg, min(min) AS min, max(max) AS max,
              sum(sum) AS sum, sum(n)::int AS count
         FROM parts
        GROUP BY device_id, key, bucket
        ORDER BY bucket, parts.device_id, key`,
      [
        deviceIds,
        keys,
        hours.fullFrom.toISOString(),
        hours.fullTo.toISOString(),
        start.toISOString(),
        end.toISOString(),
        bucket,
        timeZone,
      ],
    );
    return rows;
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
