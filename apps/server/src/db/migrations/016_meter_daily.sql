-- Daily meter increases (issue 18; docs/workbench.md "Water delivered"): what each device's
-- cumulative counters (cumulativeVolume m³, energy kWh) rose by per day of the tenant's time zone,
-- and per month, counter resets included. The workbench's water today and this month, and the
-- water delivered per zone and day, read one row per device and day (or month) instead of every
-- reading of the month (a month of 5,000 meters reporting each minute is 200 million readings;
-- here 150,000 day rows, 5,000 month rows). The data report's increases per hour come from the
-- hourly rollup's first and last readings (migration 015) by the same rule.
--
-- A statement trigger keeps it, like the hourly rollup (migration 006), with no change to the
-- writers. A step from one reading to the next adds `value - previous` when the counter rose (or
-- stayed), and `value` when it fell: the meter was reset (replaced, rolled over, power loss) and
-- counted again from zero. The step belongs to the day of the later reading. A device's first
-- reading ever has no previous one and adds nothing.
--
-- Readings arriving in time order (the normal case: a device's next reading, a backlog sent on
-- reconnect) step from the meter's newest reading counted so far (iot_meter_last) and are added to
-- their days and months in one statement per flush. A reading not newer than that one (a late
-- resend, an import of history) recomputes the meter's days and months from that reading's day
-- on, from the readings. Two flushes with readings of the same meter take its advisory lock in one
-- order, and the later sees what the earlier counted once it has committed.
--
-- Deleted readings (a deleted device, retention) are cleared by the code that deletes them
-- (device-telemetry-cleanup.ts, retention-sweeper.ts). The days are those of the time zone when
-- the readings came: changing a tenant's time zone leaves past days as they were cut.
--
-- No foreign key to iot_device (entity tables come after the migrations); tenancy.sql gives the
-- tables the tenant and device-scope policies (they have tenant_id and device_id).

CREATE TABLE iot_meter_daily (
  tenant_id bigint NOT NULL,
  device_id bigint NOT NULL,
  key text NOT NULL,
  -- The tenant's calendar day (sys_param timeZone, default Asia/Shanghai).
  day date NOT NULL,
  increase double precision NOT NULL,
  PRIMARY KEY (tenant_id, device_id, key, day)
) WITH (fillfactor = 70);

-- The workbench and the reports read a period of every device: by key and day.
CREATE INDEX iot_meter_daily_period ON iot_meter_daily (tenant_id, key, day);

-- The same per calendar month (`month`: its first day), kept with the days: this month's water of
-- 5,000 meters is 5,000 rows, not one per meter and day.
CREATE TABLE iot_meter_monthly (
  tenant_id bigint NOT NULL,
  device_id bigint NOT NULL,
  key text NOT NULL,
  month date NOT NULL,
  increase double precision NOT NULL,
  PRIMARY KEY (tenant_id, device_id, key, month)
) WITH (fillfactor = 70);
CREATE INDEX iot_meter_monthly_period ON iot_meter_monthly (tenant_id, key, month);

-- Each meter's newest reading counted so far: the next flush's readings step from it, and a
-- reading not newer than it is out of order. One row per meter, so a flush looks its meters up
-- here instead of in the readings.
CREATE TABLE iot_meter_last (
  tenant_id bigint NOT NULL,
  device_id bigint NOT NULL,
  key text NOT NULL,
  ts timestamptz NOT NULL,
  value double precision NOT NULL,
  PRIMARY KEY (tenant_id, device_id, key)
);

-- The tenant's time zone as PostgreSQL knows it; an unknown or empty setting is Asia/Shanghai
-- (telemetry-settings.ts timeZoneOf), so a typo never stops ingestion.
CREATE FUNCTION iot_meter_zone(tenant bigint) RETURNS text
LANGUAGE plpgsql STABLE AS $$
DECLARE
  zone text;
BEGIN
  SELECT nullif(btrim(param_value), '') INTO zone
    FROM sys_param WHERE tenant_id = tenant AND param_key = 'timeZone' LIMIT 1;
  zone := coalesce(zone, 'Asia/Shanghai');
  PERFORM now() AT TIME ZONE zone;
  RETURN zone;
EXCEPTION WHEN OTHERS THEN
  RETURN 'Asia/Shanghai';
END $$;

-- The keys that are counters.
CREATE FUNCTION iot_meter_keys() RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$ SELECT ARRAY['cumulativeVolume', 'energy'] $$;

-- Recomputes one meter's days from the day holding `since` on, from its readings, its months from
-- that day's on, and its newest reading counted.
CREATE FUNCTION iot_meter_recompute(tenant bigint, device bigint, meter text, since timestamptz)
RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  zone text := iot_meter_zone(tenant);
  first_day date := (since AT TIME ZONE zone)::date;
  day_start timestamptz := first_day::timestamp AT TIME ZONE zone;
BEGIN
  DELETE FROM iot_meter_daily
   WHERE tenant_id = tenant AND device_id = device AND key = meter AND day >= first_day;
  INSERT INTO iot_meter_daily (tenant_id, device_id, key, day, increase)
  SELECT tenant, device, meter, (ts AT TIME ZONE zone)::date,
         sum(CASE WHEN value >= previous THEN value - previous ELSE value END)
    FROM (SELECT ts, value, lag(value) OVER (ORDER BY ts) AS previous
            FROM ((SELECT ts, value FROM iot_telemetry
                    WHERE tenant_id = tenant AND device_id = device AND key = meter
                      AND ts < day_start AND value IS NOT NULL
                    ORDER BY ts DESC LIMIT 1)
                  UNION ALL
                  SELECT ts, value FROM iot_telemetry
                   WHERE tenant_id = tenant AND device_id = device AND key = meter
                     AND ts >= day_start AND value IS NOT NULL) AS readings) AS steps
   WHERE previous IS NOT NULL
   GROUP BY 4;
  DELETE FROM iot_meter_monthly
   WHERE tenant_id = tenant AND device_id = device AND key = meter
     AND month >= date_trunc('month', first_day)::date;
  INSERT INTO iot_meter_monthly (tenant_id, device_id, key, month, increase)
  SELECT tenant, device, meter, date_trunc('month', day)::date, sum(increase)
    FROM iot_meter_daily
   WHERE tenant_id = tenant AND device_id = device AND key = meter
     AND day >= date_trunc('month', first_day)::date
   GROUP BY 4;
  INSERT INTO iot_meter_last AS l (tenant_id, device_id, key, ts, value)
  SELECT tenant, device, meter, ts, value FROM iot_telemetry
   WHERE tenant_id = tenant AND device_id = device AND key = meter AND value IS NOT NULL
   ORDER BY ts DESC LIMIT 1
  ON CONFLICT (tenant_id, device_id, key) DO UPDATE SET ts = EXCLUDED.ts, value = EXCLUDED.value;
END $$;

CREATE FUNCTION iot_meter_add() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  late record;
BEGIN
  -- Most statements carry no counter (a weather station, the benchmarks' meters): one look.
  IF NOT EXISTS (SELECT 1 FROM added WHERE key = ANY (iot_meter_keys()) AND value IS NOT NULL) THEN
    RETURN NULL;
  END IF;
  -- One meter's flushes one after the other, locked in one order (no deadlock between two), so
  -- each reads the newest reading counted by the one before.
  PERFORM pg_advisory_xact_lock(hashtextextended('iot_meter:' || device_id || ':' || key, tenant_id))
     FROM (SELECT DISTINCT tenant_id, device_id, key FROM added
            WHERE key = ANY (iot_meter_keys()) AND value IS NOT NULL
            ORDER BY 1, 2, 3) AS meters;

  -- Out of order (the statement's first reading of a meter is not newer than the newest counted):
  -- the meter's days from that reading's day on, counted again.
  FOR late IN
    SELECT m.tenant_id, m.device_id, m.key, m.first_ts
      FROM (SELECT tenant_id, device_id, key, min(ts) AS first_ts
              FROM added WHERE key = ANY (iot_meter_keys()) AND value IS NOT NULL
             GROUP BY 1, 2, 3) AS m
      JOIN iot_meter_last l USING (tenant_id, device_id, key)
     WHERE l.ts >= m.first_ts
     ORDER BY 1, 2, 3
  LOOP
    PERFORM iot_meter_recompute(late.tenant_id, late.device_id, late.key, late.first_ts);
  END LOOP;

  -- In order: each meter's readings step from its newest counted one, added to their days and
  -- months; the newest of the statement becomes the meter's newest counted.
  WITH zones AS MATERIALIZED (
    SELECT tenant_id, iot_meter_zone(tenant_id) AS zone
      FROM (SELECT DISTINCT tenant_id FROM added) AS t),
  meters AS MATERIALIZED (
    SELECT m.tenant_id, m.device_id, m.key, m.last_ts, l.ts AS prev_ts, l.value AS prev_value,
           z.zone
      FROM (SELECT tenant_id, device_id, key, min(ts) AS first_ts, max(ts) AS last_ts
              FROM added WHERE key = ANY (iot_meter_keys()) AND value IS NOT NULL
             GROUP BY 1, 2, 3) AS m
      JOIN zones z USING (tenant_id)
      LEFT JOIN iot_meter_last l USING (tenant_id, device_id, key)
     WHERE l.ts IS NULL OR l.ts < m.first_ts),
  moved AS (
    INSERT INTO iot_meter_last AS l (tenant_id, device_id, key, ts, value)
    SELECT m.tenant_id, m.device_id, m.key, a.ts, a.value
      FROM meters m
      JOIN added a ON a.tenant_id = m.tenant_id AND a.device_id = m.device_id AND a.key = m.key
                  AND a.ts = m.last_ts
     ORDER BY 1, 2, 3
    ON CONFLICT (tenant_id, device_id, key) DO UPDATE SET ts = EXCLUDED.ts, value = EXCLUDED.value),
  days AS MATERIALIZED (
  SELECT tenant_id, device_id, key, day,
         sum(CASE WHEN value >= previous THEN value - previous ELSE value END) AS increase
    FROM (SELECT s.tenant_id, s.device_id, s.key, s.value, (s.ts AT TIME ZONE s.zone)::date AS day,
                 lag(s.value) OVER (PARTITION BY s.tenant_id, s.device_id, s.key ORDER BY s.ts)
                   AS previous
            FROM (SELECT a.tenant_id, a.device_id, a.key, a.ts, a.value, m.zone
                    FROM added a JOIN meters m USING (tenant_id, device_id, key)
                   WHERE a.value IS NOT NULL
                  UNION ALL
                  SELECT tenant_id, device_id, key, prev_ts, prev_value, zone
                    FROM meters WHERE prev_ts IS NOT NULL) AS s) AS steps
   WHERE previous IS NOT NULL
   GROUP BY 1, 2, 3, 4),
  months AS (
    INSERT INTO iot_meter_monthly AS mo (tenant_id, device_id, key, month, increase)
    SELECT tenant_id, device_id, key, date_trunc('month', day)::date, sum(increase)
      FROM days GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (tenant_id, device_id, key, month) DO UPDATE
      SET increase = mo.increase + EXCLUDED.increase)
  INSERT INTO iot_meter_daily AS d (tenant_id, device_id, key, day, increase)
  SELECT tenant_id, device_id, key, day, increase FROM days ORDER BY 1, 2, 3, 4
  ON CONFLICT (tenant_id, device_id, key, day) DO UPDATE
    SET increase = d.increase + EXCLUDED.increase;
  RETURN NULL;
END $$;

CREATE TRIGGER iot_meter_add AFTER INSERT ON iot_telemetry
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION iot_meter_add();

-- The readings stored before this migration.
DO $$
DECLARE
  meter record;
BEGIN
  FOR meter IN
    SELECT tenant_id, device_id, key, min(ts) AS since FROM iot_telemetry
     WHERE key = ANY (iot_meter_keys()) AND value IS NOT NULL GROUP BY 1, 2, 3
  LOOP
    PERFORM iot_meter_recompute(meter.tenant_id, meter.device_id, meter.key, meter.since);
  END LOOP;
END $$;
