import type { Sql } from '../../../db/database';

/** One key's readings over one local day, from the hourly rollup. */
export interface DailyKeyRow {
  day: string;
  key: string;
  /** Hours of the day with at least one reading. */
  hours: number;
  min: number | null;
  max: number | null;
  /** Sum of the readings (interval quantities: rainfall, sunshine). */
  total: number | null;
  /** Mean of the readings. */
  mean: number | null;
  /** Mean of the hourly means (irradiance: each hour weighs alike, however often it reported). */
  hourlyMean: number | null;
}

/** The station and its kind, as the caller may see it (RLS). */
export interface StationRow {
  id: string;
  device_kind: string | null;
  lat: number | null;
}

export const dailyWeatherRepo = {
  async station(sql: Sql, deviceId: string): Promise<StationRow | undefined> {
    const { rows } = await sql.query<StationRow>(
      `SELECT d.id::text, p.device_kind, d.lat FROM iot_device d
         LEFT JOIN iot_product p ON p.id = d.product_id WHERE d.id = $1`,
      [deviceId],
    );
    return rows[0];
  },

  /**
   * Per local day (YYYY-MM-DD in `timeZone`) from `firstDay` to `lastDay` inclusive, per key:
   * hours covered, min, max, total, mean and mean of hourly means. Days are cut from whole UTC
   * hours, exact in every zone whose offset is whole hours.
   */
  async days(
    sql: Sql,
    deviceId: string,
    keys: string[],
    firstDay: string,
    lastDay: string,
    timeZone: string,
  ): Promise<DailyKeyRow[]> {
    const { rows } = await sql.query<DailyKeyRow>(
      `SELECT to_char(date_trunc('day', h.hour, $5) AT TIME ZONE $5, 'YYYY-MM-DD') AS day, h.key,
              count(*)::int AS hours, min(h.min) AS min, max(h.max) AS max, sum(h.sum) AS total,
              sum(h.sum) / nullif(sum(h.n), 0) AS mean, avg(h.sum / h.n) AS "hourlyMean"
         FROM iot_telemetry_hourly h
        WHERE h.tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint
          AND h.device_id = $1 AND h.key = ANY($2::text[]) AND h.n > 0
          AND h.hour >= ($3::date)::timestamp AT TIME ZONE $5
          AND h.hour < ($4::date + 1)::timestamp AT TIME ZONE $5
        GROUP BY 1, 2`,
      [deviceId, keys, firstDay, lastDay, timeZone],
    );
    return rows;
  },
};
