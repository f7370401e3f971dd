import type { Sql } from '../../../db/database';

export interface OpenHoursRow {
  device_id: string;
  device_no: string;
  device_name: string;
  zone_id: string | null;
  channel: number;
  hours: number;
}

/**
 * Hours each valve channel stood open between two instants, from its valve state readings
 * (valve<N>State: 1 open): a state holds from its reading until the next one (or the range's
 * end, or now); the state before the range (its last earlier reading) carries into it. RLS:
 * the caller's devices.
 */
export async function openHours(
  sql: Sql,
  range: { from: Date; to: Date; zoneIds: readonly string[] | null },
): Promise<OpenHoursRow[]> {
  const { rows } = await sql.query<OpenHoursRow>(
    `WITH valves AS (
       SELECT d.id, d.device_no, d.device_name, d.zone_id
         FROM iot_device d JOIN iot_product p ON p.id = d.product_id
        WHERE p.device_kind = 'irrigation_valve'
          AND ($3::bigint[] IS NULL OR d.zone_id = ANY ($3::bigint[]))),
     readings AS (
       SELECT t.device_id, t.key, t.ts, t.value FROM iot_telemetry t
        WHERE t.device_id IN (SELECT id FROM valves) AND t.key ~ '^valve[0-9]+State$'
          AND t.ts >= $1 AND t.ts < $2
       UNION ALL
       SELECT b.device_id, b.key, $1::timestamptz, b.value
         FROM valves v
         CROSS JOIN LATERAL (
           SELECT DISTINCT ON (t.key) t.device_id, t.key, t.value FROM iot_telemetry t
            WHERE t.device_id = v.id AND t.key ~ '^valve[0-9]+State$' AND t.ts < $1
              AND t.ts >= $1::timestamptz - interval '31 days'
            ORDER BY t.key, t.ts DESC) b),
     spans AS (
       SELECT device_id, key, value, ts,
              coalesce(lead(ts) OVER (PARTITION BY device_id, key ORDER BY ts),
                       least($2::timestamptz, now())) AS until
         FROM readings)
     SELECT v.id::text AS device_id, v.device_no, v.device_name, v.zone_id::text AS zone_id,
            substring(s.key FROM '^valve([0-9]+)State$')::int AS channel,
            round((sum(extract(epoch FROM greatest(s.until - s.ts, interval '0')))
                   FILTER (WHERE s.value = 1) / 3600.0)::numeric, 2)::float8 AS hours
       FROM spans s JOIN valves v ON v.id = s.device_id
      GROUP BY v.id, v.device_no, v.device_name, v.zone_id, s.key
      ORDER BY v.device_no, channel`,
    [range.from, range.to, range.zoneIds],
  );
  return rows.map((row) => ({ ...row, hours: row.hours ?? 0 }));
}
