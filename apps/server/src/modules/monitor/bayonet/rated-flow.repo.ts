import type { Sql } from '../../../db/database';
import type { SeriesPoints } from '../report/report-series';

const TENANT = `nullif(current_setting('app.tenant_id', true), '')::bigint`;

/** A concentration sample applies to levels read up to this long after it. */
const CONCENTRATION_HOLD = `interval '1 hour'`;

export type RatedKey = 'ratedFlow' | 'ratedSedimentDischarge';

/**
 * A bayonet station's flow (m³/s) at each stored level, with the rating curve valid at the
 * reading's time (Q = 0 at or below H0; no value where no curve is valid), and its sediment
 * discharge (kg/s: flow × the latest concentration sampled within the hour before): per reading
 * (`raw`) or aggregated per bucket cut in the tenant's zone. Flow is computed per reading and
 * then averaged: the mean of Q(H) is not Q of the mean level, the curve being a power.
 */
export async function ratedSeries(
  sql: Sql,
  deviceIds: string[],
  key: RatedKey,
  start: Date,
  end: Date,
  bucket: 'raw' | 'hour' | 'day' | 'month',
  timeZone: string,
): Promise<Map<string, SeriesPoints>> {
  const value =
    key === 'ratedFlow'
      ? 'q.flow'
      : `q.flow * (SELECT s.value FROM iot_telemetry s
                    WHERE s.tenant_id = ${TENANT} AND s.device_id = q.device_id
                      AND s.key = 'sedimentConcentration' AND s.value IS NOT NULL
                      AND s.ts <= q.ts AND s.ts > q.ts - ${CONCENTRATION_HOLD}
                    ORDER BY s.ts DESC LIMIT 1)`;
  const at = bucket === 'raw' ? 'v.ts' : `date_trunc($4, v.ts, $5)`;
  const params: unknown[] = [deviceIds, start.toISOString(), end.toISOString()];
  if (bucket !== 'raw') params.push(bucket, timeZone);
  const { rows } = await sql.query<{
    device_id: string;
    at: number;
    avg: number | null;
    min: number | null;
    max: number | null;
    count: number;
    sum: number | null;
  }>(
    `WITH q AS (
       SELECT l.device_id, l.ts,
              CASE WHEN l.value > c.h0 THEN c.a * power(l.value - c.h0, c.b) ELSE 0 END AS flow
         FROM iot_telemetry l
         JOIN monitor_rating_curve c
           ON c.tenant_id = l.tenant_id AND c.device_id = l.device_id
          AND c.valid_from <= l.ts AND (c.valid_to IS NULL OR l.ts < c.valid_to)
        WHERE l.tenant_id = ${TENANT} AND l.device_id = ANY($1::bigint[]) AND l.key = 'waterLevel'
          AND l.ts >= $2 AND l.ts <= $3 AND l.value IS NOT NULL),
     v AS (SELECT q.device_id, q.ts, ${value} AS value FROM q)
     SELECT v.device_id::text AS device_id, date_part('epoch', ${at}) * 1000 AS at,
            avg(v.value) AS avg, min(v.value) AS min, max(v.value) AS max,
            count(*)::int AS count, sum(v.value) AS sum
       FROM v WHERE v.value IS NOT NULL
      GROUP BY v.device_id, 2 ORDER BY v.device_id, 2`,
    params,
  );
  const byDevice = new Map<string, SeriesPoints>();
  for (const row of rows) {
    let points = byDevice.get(row.device_id);
    if (!points)
      byDevice.set(
        row.device_id,
        (points = { at: [], avg: [], min: [], max: [], count: [], sum: [], increase: [] }),
      );
    points.at.push(Number(row.at));
    points.avg.push(row.avg === null ? null : Number(row.avg));
    points.min.push(row.min === null ? null : Number(row.min));
    points.max.push(row.max === null ? null : Number(row.max));
    points.count.push(row.count);
    points.sum.push(row.sum === null ? null : Number(row.sum));
    points.increase.push(null);
  }
  return byDevice;
}
