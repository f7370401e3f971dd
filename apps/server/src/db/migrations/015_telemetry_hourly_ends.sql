-- The hourly rollup (migration 006) keeps each hour's first and last numeric reading too, so a
-- meter that counts up (cumulative volume, energy) has its increase over any range from the
-- hours alone: the step from one hour's last reading to the next hour's first, plus the climb
-- inside each hour, with a reset (a value below the one before) counted from zero (data report,
-- telemetry-query.repo.ts reportAggregate). Reading every reading of 50 meters' month instead
-- would cost seconds.
--
-- First and last merge whatever order readings arrive in: a batch's earliest replaces the
-- hour's first only when it is earlier, its latest the hour's last only when it is later.

ALTER TABLE iot_telemetry_hourly
  ADD COLUMN first_ts timestamptz,
  ADD COLUMN first_value double precision,
  ADD COLUMN last_ts timestamptz,
  ADD COLUMN last_value double precision;

CREATE OR REPLACE FUNCTION iot_telemetry_hourly_add() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO iot_telemetry_hourly AS h
         (tenant_id, device_id, key, hour, n, sum, min, max,
          first_ts, first_value, last_ts, last_value)
  SELECT tenant_id, device_id, key, date_trunc('hour', ts, 'UTC'),
         count(value), sum(value), min(value), max(value),
         min(ts) FILTER (WHERE value IS NOT NULL),
         (array_agg(value ORDER BY ts) FILTER (WHERE value IS NOT NULL))[1],
         max(ts) FILTER (WHERE value IS NOT NULL),
         (array_agg(value ORDER BY ts DESC) FILTER (WHERE value IS NOT NULL))[1]
    FROM added
   GROUP BY 1, 2, 3, 4
   -- Hours locked in one order by every flush: two flushes running side by side (the same
   -- devices' current hours) wait for each other instead of deadlocking.
   ORDER BY 1, 2, 3, 4
  ON CONFLICT (tenant_id, device_id, key, hour) DO UPDATE SET
    n = h.n + EXCLUDED.n,
    sum = coalesce(h.sum + EXCLUDED.sum, h.sum, EXCLUDED.sum),
    min = least(h.min, EXCLUDED.min),
    max = greatest(h.max, EXCLUDED.max),
    first_value = CASE WHEN h.first_ts IS NULL OR EXCLUDED.first_ts < h.first_ts
                       THEN EXCLUDED.first_value ELSE h.first_value END,
    first_ts = least(h.first_ts, EXCLUDED.first_ts),
    last_value = CASE WHEN h.last_ts IS NULL OR EXCLUDED.last_ts > h.last_ts
                      THEN EXCLUDED.last_value ELSE h.last_value END,
    last_ts = greatest(h.last_ts, EXCLUDED.last_ts);
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION iot_telemetry_hourly_remove() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM iot_telemetry_hourly h
   USING (SELECT DISTINCT tenant_id, device_id, key, date_trunc('hour', ts, 'UTC') AS hour
            FROM removed) t
   WHERE h.tenant_id = t.tenant_id AND h.device_id = t.device_id AND h.key = t.key
     AND h.hour = t.hour;
  INSERT INTO iot_telemetry_hourly
         (tenant_id, device_id, key, hour, n, sum, min, max,
          first_ts, first_value, last_ts, last_value)
  SELECT t.tenant_id, t.device_id, t.key, t.hour, a.n, a.sum, a.min, a.max,
         a.first_ts, a.first_value, a.last_ts, a.last_value
    FROM (SELECT DISTINCT tenant_id, device_id, key, date_trunc('hour', ts, 'UTC') AS hour
            FROM removed) t
   CROSS JOIN LATERAL (
     SELECT count(*) AS readings, count(r.value)::int AS n, sum(r.value) AS sum,
            min(r.value) AS min, max(r.value) AS max,
            min(r.ts) FILTER (WHERE r.value IS NOT NULL) AS first_ts,
            (array_agg(r.value ORDER BY r.ts) FILTER (WHERE r.value IS NOT NULL))[1] AS first_value,
            max(r.ts) FILTER (WHERE r.value IS NOT NULL) AS last_ts,
            (array_agg(r.value ORDER BY r.ts DESC) FILTER (WHERE r.value IS NOT NULL))[1] AS last_value
       FROM iot_telemetry r
      WHERE r.tenant_id = t.tenant_id AND r.device_id = t.device_id AND r.key = t.key
        AND r.ts >= t.hour AND r.ts < t.hour + interval '1 hour') a
   WHERE a.readings > 0;
  RETURN NULL;
END $$;

-- The hours stored before this migration.
UPDATE iot_telemetry_hourly h
   SET first_ts = e.first_ts, first_value = e.first_value,
       last_ts = e.last_ts, last_value = e.last_value
  FROM (SELECT tenant_id, device_id, key, date_trunc('hour', ts, 'UTC') AS hour,
               min(ts) AS first_ts, (array_agg(value ORDER BY ts))[1] AS first_value,
               max(ts) AS last_ts, (array_agg(value ORDER BY ts DESC))[1] AS last_value
          FROM iot_telemetry
         WHERE value IS NOT NULL
         GROUP BY 1, 2, 3, 4) e
 WHERE h.tenant_id = e.tenant_id AND h.device_id = e.device_id AND h.key = e.key
   AND h.hour = e.hour;
