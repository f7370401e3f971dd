-- Telemetry storage (docs/iot.md): a narrow time series partitioned by month, the latest value per
-- device and key, and per-device ingestion counters. No foreign keys to iot_device: entity tables
-- are created after the migrations; the ingest service removes a device's rows when it goes.

CREATE TABLE iot_telemetry (
  tenant_id bigint NOT NULL,
  device_id bigint NOT NULL,
  key text NOT NULL,
  ts timestamptz NOT NULL,
  value double precision,
  text_value text,
  -- A reading of one key at one instant is one reading: a QoS 1 resend after a lost PUBACK
  -- (stored, but the device never heard so) is absorbed by ON CONFLICT DO NOTHING.
  PRIMARY KEY (tenant_id, device_id, key, ts)
) PARTITION BY RANGE (ts);

-- Creates the month partition holding `at` (UTC months) when missing, under the same row-level
-- security as its parent: tenancy.sql only runs at migrate time, partitions appear later.
CREATE FUNCTION iot_telemetry_partition(at timestamptz) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  month_start timestamptz := date_trunc('month', at, 'UTC');
  name text := 'iot_telemetry_y' || to_char(month_start AT TIME ZONE 'UTC', 'YYYY"m"MM');
BEGIN
  IF to_regclass(name) IS NOT NULL THEN
    RETURN name;
  END IF;
  -- Two nodes creating the same month wait for each other instead of failing.
  PERFORM pg_advisory_xact_lock(hashtext('iot_telemetry_partition'));
  IF to_regclass(name) IS NOT NULL THEN
    RETURN name;
  END IF;
  EXECUTE format('CREATE TABLE %I PARTITION OF iot_telemetry FOR VALUES FROM (%L) TO (%L)',
    name, month_start, month_start + interval '1 month');
  EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', name);
  EXECUTE format(
    'CREATE POLICY tenant_isolation ON %I USING (tenant_id = nullif(current_setting(''app.tenant_id'', true), '''')::bigint) '
    'WITH CHECK (tenant_id = nullif(current_setting(''app.tenant_id'', true), '''')::bigint)', name);
  RETURN name;
END $$;

-- The previous, current and next two months; the ingest service keeps creating ahead.
SELECT iot_telemetry_partition(now() + make_interval(months => m)) FROM generate_series(-1, 2) AS m;

CREATE TABLE iot_telemetry_latest (
  tenant_id bigint NOT NULL,
  device_id bigint NOT NULL,
  key text NOT NULL,
  ts timestamptz NOT NULL,
  value double precision,
  text_value text,
  PRIMARY KEY (tenant_id, device_id, key)
);

CREATE TABLE iot_ingest_stat (
  tenant_id bigint NOT NULL,
  device_id bigint NOT NULL,
  accepted bigint NOT NULL DEFAULT 0,
  unknown_keys bigint NOT NULL DEFAULT 0,
  wrong_type bigint NOT NULL DEFAULT 0,
  out_of_range bigint NOT NULL DEFAULT 0,
  bad_payload bigint NOT NULL DEFAULT 0,
  -- Readings stamped outside the accepted window (older than the retention, or in the future).
  bad_time bigint NOT NULL DEFAULT 0,
  last_problem text,
  last_problem_at timestamptz,
  last_accepted_at timestamptz,
  PRIMARY KEY (tenant_id, device_id)
);
