-- Area settings and fertigation runs (issue 18; docs/monitor-rules.md).
--
-- Keyed by device: tenancy.sql gives every table with tenant_id and device_id the tenant policy
-- and the device-scope policy, so a caller confined to zones or projects sees and writes only the
-- rows of the devices inside them. No foreign key to iot_device (entity tables are created after
-- the migrations): readers join the devices, so a deleted device's rows are never answered.

-- One value per device and setting key of its area's declaration (AreaDef.settings): a pump
-- station's dry-run level, a fertigation machine's EC band. A device without a row uses the
-- declaration's default.
CREATE TABLE monitor_area_setting (
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  device_id bigint NOT NULL,
  setting_key text NOT NULL,
  value jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text,
  PRIMARY KEY (tenant_id, device_id, setting_key)
);

-- One run of a fertigation program on a machine: what ran (the program and recipe as they were
-- when it started), each step's command and outcome, and why it ended.
CREATE TABLE monitor_fertigation_run (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  device_id bigint NOT NULL,
  program_id bigint,
  -- The program and its recipe as they were at the start (both may change or go later).
  program jsonb NOT NULL,
  recipe jsonb NOT NULL,
  status text NOT NULL DEFAULT 'running'
    CHECK (status IN ('running', 'succeeded', 'failed', 'stopped')),
  -- Why it failed or stopped: a message key of the contract's catalogue and its parameters,
  -- translated for each reader.
  reason jsonb,
  -- The commands sent, in order: [{step, name, params, at, commandId}]; a step's outcome is its
  -- command's (iot_command), read when the run is.
  steps jsonb NOT NULL DEFAULT '[]'::jsonb,
  -- When the machine accepted startProgram, and when its own time is over (water before +
  -- fertilizer + water after).
  program_started_at timestamptz,
  ends_at timestamptz,
  -- Who started it: commands go out in their name (a scheduled start: the program's editor).
  started_by_id bigint,
  started_by text NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  ended_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- A machine runs one program at a time, whichever node or user starts it.
CREATE UNIQUE INDEX monitor_fertigation_run_one ON monitor_fertigation_run (tenant_id, device_id)
  WHERE status = 'running';
CREATE INDEX monitor_fertigation_run_device ON monitor_fertigation_run
  (tenant_id, device_id, started_at DESC);
