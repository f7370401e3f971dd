import { AREAS, type AreaDef } from '@shuili/contract';
import type { Sql } from '../../../db/database';
import { Params } from '../../../entity/entity-sql';

/**
 * Water delivered, from the meter increases (migration 016, `iot_meter_daily` and
 * `iot_meter_monthly`): what the devices' cumulativeVolume counters rose by per day and month of
 * the tenant's calendar, counter resets included. One row per device and day (or month), so a
 * month of thousands of meters is read in a few milliseconds. Every call runs in the caller's tenant transaction: row-level security keeps the
 * tenant's devices and, for a confined caller, those of their zones and projects; the join to
 * iot_device leaves out deleted devices. Shared by the workbench and the irrigation reports.
 */

/** The counter whose increases are the water delivered, m³. */
export const WATER_METER_KEY = 'cumulativeVolume';

/** The areas whose devices deliver water: their declarations total cumulativeVolume. */
export const WATER_AREAS: readonly AreaDef[] = AREAS.filter((area) =>
  area.totalFactors.includes(WATER_METER_KEY),
);

/** A calendar day of the tenant, `YYYY-MM-DD`. */
export type LocalDay = string;

export interface KindTotals {
  kind: string;
  today: number;
  month: number;
}

export interface PeriodRow {
  /** First day of the bucket (a day, the Monday of a week, the first of a month). */
  bucket: LocalDay;
  /** The group's id: a zone id (null: devices of no zone) or a device id. */
  groupId: string | null;
  volume: number;
}

/** The tenant's today and first of this month, in its time zone. */
export async function calendarOf(
  sql: Sql,
  timeZone: string,
  now = new Date(),
): Promise<{ today: LocalDay; monthStart: LocalDay }> {
  const { rows } = await sql.query<{ today: string; month_start: string }>(
    `SELECT to_char(($1::timestamptz AT TIME ZONE $2)::date, 'YYYY-MM-DD') AS today,
            to_char(date_trunc('month', $1::timestamptz AT TIME ZONE $2), 'YYYY-MM-DD') AS month_start`,
    [now.toISOString(), timeZone],
  );
  return { today: rows[0]!.today, monthStart: rows[0]!.month_start };
}

export const waterDeliveredRepo = {
  /**
   * Today's and this month's increases of a counter per device kind (kinds with none are
   * absent). `today` and `monthStart` come from calendarOf.
   */
  async todayAndMonth(
    sql: Sql,
    options: { kinds: readonly string[]; today: LocalDay; monthStart: LocalDay; key?: string },
  ): Promise<KindTotals[]> {
    // One row per meter for today (the days) and one for this month (the months): a month of
    // 5,000 meters is 10,000 rows, read by key and period.
    const { rows } = await sql.query<KindTotals>(
      `WITH meters AS MATERIALIZED (
         SELECT device_id, increase AS today, 0::float8 AS month FROM iot_meter_daily
          WHERE tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint
            AND key = $1 AND day = $3::date
         UNION ALL
         SELECT device_id, 0::float8, increase FROM iot_meter_monthly
          WHERE tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint
            AND key = $1 AND month = $2::date)
       SELECT p.device_kind AS kind, coalesce(sum(m.today), 0)::float8 AS today,
              coalesce(sum(m.month), 0)::float8 AS month
         FROM meters m
         JOIN iot_device d ON d.id = m.device_id
         JOIN iot_product p ON p.id = d.product_id
        WHERE p.device_kind = ANY($4::text[])
        GROUP BY p.device_kind`,
      [options.key ?? WATER_METER_KEY, options.monthStart, options.today, options.kinds],
    );
    return rows;
  },

  /**
   * Increases per bucket and zone (or device) over the days `from`..`to` (inclusive), for the
   * water delivered per zone per day, week or month. Weeks start on Monday (ISO).
   */
  async byPeriod(
    sql: Sql,
    options: {
      kinds: readonly string[];
      from: LocalDay;
      to: LocalDay;
      bucket: 'day' | 'week' | 'month';
      groupBy: 'zone' | 'device';
      /** Only these devices (e.g. one zone's, or a valve group's). */
      deviceIds?: readonly string[];
      key?: string;
    },
  ): Promise<PeriodRow[]> {
    const params = new Params();
    const group = options.groupBy === 'zone' ? 'd.zone_id' : 'd.id';
    const devices = options.deviceIds
      ? `AND d.id = ANY(${params.add(options.deviceIds)}::bigint[])`
      : '';
    const { rows } = await sql.query<PeriodRow>(
      `SELECT to_char(date_trunc(${params.add(options.bucket)}, m.day::timestamp), 'YYYY-MM-DD')
                AS bucket,
              ${group}::text AS "groupId", sum(m.increase)::float8 AS volume
         FROM iot_meter_daily m
         JOIN iot_device d ON d.id = m.device_id
         JOIN iot_product p ON p.id = d.product_id
        WHERE m.tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint
          AND m.key = ${params.add(options.key ?? WATER_METER_KEY)}
          AND m.day >= ${params.add(options.from)}::date AND m.day <= ${params.add(options.to)}::date
          AND p.device_kind = ANY(${params.add(options.kinds)}::text[]) ${devices}
        GROUP BY 1, ${group}
        ORDER BY 1, ${group}`,
      params.values,
    );
    return rows;
  },
};
