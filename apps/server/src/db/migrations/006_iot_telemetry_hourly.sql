-- Hourly rollup of telemetry (docs/iot.md): count, sum, min and max of every device's key per UTC
-- hour. Reports read it instead of the raw readings: a device's week is 168 rows a key instead of
-- thousands scattered over the month partition (one reading a minute of 1,000 devices puts each
-- of a device's readings on its own page), which kept the hourly report of one device's week at
-- 45-75 ms on PostgreSQL. An hour of UTC is an hour (and part of one day) of every zone whose
-- offset is whole hours; queries in other zones, and the partial hours at a range's edges, read
-- the raw readings (telemetry-query.repo.ts).
--
-- Triggers keep it exact without any change to the writers: every statement that inserts or
-- deletes readings updates the hours it touched, in its own transaction. ON CONFLICT DO NOTHING
-- (a QoS 1 resend) leaves the resent reading out of the transition table, so it is never counted
-- twice.

CREATE TABLE iot_telemetry_hourly (
  tenant_id bigint NOT NULL,
  device_id bigint NOT NULL,
  key text NOT NULL,
  hour timestamptz NOT NULL,
  -- count(value): readings with a numeric value; sum is null when there is none.
  n integer NOT NULL,
  sum double precision,
  min double precision,
  max double precision,
  PRIMARY KEY (tenant_id, device_id, key, hour)
-- Room on each page for the hour's next readings to update in place (HOT, no index write).
) WITH (fillfactor = 70);

CREATE FUNCTION iot_telemetry_hourly_add() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO iot_telemetry_hourly AS h (tenant_id, device_id, key, hour, n, sum, min, max)
  SELECT tenant_id, device_id, key, date_trunc('hour', ts, 'UTC'),
         count(value), sum(value), min(value), max(value)
    FROM added
   GROUP BY 1, 2, 3, 4
   -- Hours locked in one order by every flush: two flushes running side by side (the same
   -- devices' current hours) wait for each other instead of deadlocking.
   ORDER BY 1, 2, 3, 4
  ON CONFLICT (tenant_id, device_id, key, hour) DO UPDATE SET
    n = h.n + EXCLUDED.n,
    sum = coalesce(h.sum + EXCLUDED.sum, h.sum, EXCLUDED.sum),
    min = least(h.min, EXCLUDED.min),
    max = greatest(h.max, EXCLUDED.max);
  RETURN NULL;
END $$;

-- Removed readings (a deleted device, a tenant's shorter retention): their hours are counted
-- again from the readings left, and vanish when none is left.
CREATE FUNCTION iot_telemetry_hourly_remove() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM iot_telemetry_hourly h
   USING (SELECT DISTINCT tenant_id, device_id, key, date_trunc('hour', ts, 'UTC') AS hour
            FROM removed) t
   WHERE h.tenant_id = t.tenant_id AND h.device_id = t.device_id AND h.key = t.key
     AND h.hour = t.hour;
  INSERT INTO iot_telemetry_hourly (tenant_id, device_id, key, hour, n, sum, min, max)
  SELECT t.tenant_id, t.device_id, t.key, t.hour, a.n, a.sum, a.min, a.max
    FROM (SELECT DISTINCT tenant_id, device_id, key, date_trunc('hour', ts, 'UTC') AS hour
            FROM removed) t
   CROSS JOIN LATERAL (
     SELECT count(*) AS readings, count(r.value)::int AS n, sum(r.value) AS sum,
            min(r.value) AS min, max(r.value) AS max
       FROM iot_telemetry r
      WHERE r.tenant_id = t.tenant_id AND r.device_id = t.device_id AND r.key = t.key
        AND r.ts >= t.hour AND r.ts < t.hour + interval '1 hour') a
   WHERE a.readings > 0;
  RETURN NULL;
END $$;

CREATE TRIGGER iot_telemetry_hourly_add AFTER INSERT ON iot_telemetry
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION iot_telemetry_hourly_add();
CREATE TRIGGER iot_telemetry_hourly_remove AFTER DELETE ON iot_telemetry
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION iot_telemetry_hourly_remove();

-- The readings stored before this migration.
INSERT INTO iot_telemetry_hourly (tenant_id, device_id, key, hour, n, sum, min, max)
SELECT tenant_id, device_id, key, date_trunc('hour', ts, 'UTC'),
       count(value), sum(value), min(value), max(value)
  FROM iot_telemetry
 GROUP BY 1, 2, 3, 4;
