-- Flood rainstorm thresholds (issue 19; docs/monitor-rules.md "Flood and silt warnings").
--
-- Each level (blue, yellow, orange, red) × window (1, 3, 6, 12, 24 h) in mm, as JSON
-- ({"red": {"h3": 100, "h1": null, ...}, ...}): a station's own (station_id), or the tenant's
-- default (station_id NULL) that every station without its own goes by; a tenant without a
-- default goes by the national rainstorm signals. The column is station_id, not device_id: the
-- default row belongs to no device, so the device-scope policy (tenancy.sql) must not hide it
-- from zoned users; the service checks the station is visible before reading or writing its row.
-- No foreign key to iot_device (entity tables are created after the migrations): readers join
-- the devices, and the device delete hook removes a station's row.
CREATE TABLE monitor_flood_threshold (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  station_id bigint,
  thresholds jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text
);

-- One row per station and one default per tenant.
CREATE UNIQUE INDEX monitor_flood_threshold_station_idx
  ON monitor_flood_threshold (tenant_id, coalesce(station_id, 0));
