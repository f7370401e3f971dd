-- Farm traceability (issue 21, docs/traceability.md): producers, bases, plots and the devices
-- serving them, varieties, plantings, growth records, farm work, harvest batches, processing,
-- package batches with their trace codes, shipments, the public page's scans and settings.
--
-- Every table is tenant-owned (tenancy.sql gives each the tenant policy: they have tenant_id),
-- goes with its tenant (ON DELETE CASCADE), and references only rows of its own tenant (foreign
-- keys on (tenant_id, id)). The tables are the entity declarations' (packages/contract/src/
-- entities/trace/); they are made here, before the entity tables, so the checks, the global
-- uniqueness of trace codes and the functions the computed fields call exist from the start
-- (the declarations then find every column and key already there, by the names they use).
-- Quantities are in the batch's unit (kg by default); the mass rules compare them rounded to
-- grams (3 decimals). The plot's devices are a link table whose device reference the entity
-- declaration adds (iot_device is an entity table, made after the migrations).

CREATE TABLE trace_producer (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  producer_name text NOT NULL,
  producer_code text NOT NULL,
  contact text,
  phone text,
  address text,
  cert_language text NOT NULL DEFAULT 'zh'
    CONSTRAINT trace_producer_cert_language_check CHECK (cert_language IN ('zh', 'tw', 'en')),
  commitment text,
  status smallint NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint,
  updated_by bigint
);
CREATE UNIQUE INDEX trace_producer_tenant_id_id_key ON trace_producer (tenant_id, id);
CREATE UNIQUE INDEX trace_producer_producer_code_key ON trace_producer (tenant_id, producer_code);

CREATE TABLE trace_base (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  base_name text NOT NULL,
  producer_id bigint NOT NULL,
  village text NOT NULL,
  address text,
  longitude double precision
    CONSTRAINT trace_base_longitude_check CHECK (longitude BETWEEN -180 AND 180),
  latitude double precision
    CONSTRAINT trace_base_latitude_check CHECK (latitude BETWEEN -90 AND 90),
  area_mu double precision CONSTRAINT trace_base_area_mu_check CHECK (area_mu >= 0),
  description text,
  photos jsonb,
  status smallint NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint,
  updated_by bigint,
  CONSTRAINT trace_base_producer_id_fk FOREIGN KEY (tenant_id, producer_id)
    REFERENCES trace_producer (tenant_id, id)
);
CREATE UNIQUE INDEX trace_base_tenant_id_id_key ON trace_base (tenant_id, id);
CREATE UNIQUE INDEX trace_base_base_name_key ON trace_base (tenant_id, base_name);
CREATE INDEX trace_base_producer_id_idx ON trace_base (producer_id);

CREATE TABLE trace_area (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  area_name text NOT NULL,
  base_id bigint NOT NULL,
  -- A GeoJSON Polygon in WGS 84, checked by the server (modules/trace/trace-geo.ts).
  polygon text,
  area_mu double precision CONSTRAINT trace_area_area_mu_check CHECK (area_mu >= 0),
  soil text,
  remark text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint,
  updated_by bigint,
  CONSTRAINT trace_area_base_id_fk FOREIGN KEY (tenant_id, base_id)
    REFERENCES trace_base (tenant_id, id)
);
CREATE UNIQUE INDEX trace_area_tenant_id_id_key ON trace_area (tenant_id, id);
CREATE UNIQUE INDEX trace_area_base_id_area_name_key ON trace_area (tenant_id, base_id, area_name);
CREATE INDEX trace_area_base_id_idx ON trace_area (base_id);

-- The IoT devices serving a plot (the plot entity's deviceIds). The device's own reference is
-- the entity kit's trace_area_device_device_id_tenant_fk (ON DELETE CASCADE).
CREATE TABLE trace_area_device (
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  area_id bigint NOT NULL REFERENCES trace_area(id) ON DELETE CASCADE,
  device_id bigint NOT NULL,
  PRIMARY KEY (area_id, device_id),
  CONSTRAINT trace_area_device_area_id_tenant_fk FOREIGN KEY (tenant_id, area_id)
    REFERENCES trace_area (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX trace_area_device_device_id_idx ON trace_area_device (device_id);

CREATE TABLE trace_plant (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  crop_name text NOT NULL,
  variety text NOT NULL,
  category text NOT NULL DEFAULT 'grain',
  gtin text CONSTRAINT trace_plant_gtin_check CHECK (gtin ~ '^[0-9]{14}$'),
  growth_days integer CONSTRAINT trace_plant_growth_days_check CHECK (growth_days > 0),
  description text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint,
  updated_by bigint
);
CREATE UNIQUE INDEX trace_plant_tenant_id_id_key ON trace_plant (tenant_id, id);
CREATE UNIQUE INDEX trace_plant_crop_name_variety_key ON trace_plant (tenant_id, crop_name, variety);

CREATE TABLE trace_planting (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  planting_code text,
  area_id bigint NOT NULL,
  plant_id bigint NOT NULL,
  sown_at timestamptz NOT NULL,
  expected_harvest_at timestamptz,
  state text NOT NULL DEFAULT 'growing'
    CONSTRAINT trace_planting_state_check CHECK (state IN ('growing', 'harvested', 'ended')),
  remark text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint,
  updated_by bigint,
  CONSTRAINT trace_planting_area_id_fk FOREIGN KEY (tenant_id, area_id)
    REFERENCES trace_area (tenant_id, id),
  CONSTRAINT trace_planting_plant_id_fk FOREIGN KEY (tenant_id, plant_id)
    REFERENCES trace_plant (tenant_id, id)
);
CREATE UNIQUE INDEX trace_planting_tenant_id_id_key ON trace_planting (tenant_id, id);
CREATE UNIQUE INDEX trace_planting_planting_code_key ON trace_planting (tenant_id, planting_code);
CREATE INDEX trace_planting_area_id_idx ON trace_planting (area_id);
CREATE INDEX trace_planting_plant_id_idx ON trace_planting (plant_id);

CREATE TABLE trace_growth_record (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  planting_id bigint NOT NULL,
  recorded_at timestamptz NOT NULL,
  stage text NOT NULL CONSTRAINT trace_growth_record_stage_check
    CHECK (stage IN ('seedling', 'vegetative', 'flowering', 'fruiting', 'mature')),
  note text,
  photos jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint,
  updated_by bigint,
  CONSTRAINT trace_growth_record_planting_id_fk FOREIGN KEY (tenant_id, planting_id)
    REFERENCES trace_planting (tenant_id, id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX trace_growth_record_tenant_id_id_key ON trace_growth_record (tenant_id, id);
CREATE INDEX trace_growth_record_planting_id_idx ON trace_growth_record (planting_id);

CREATE TABLE trace_farmwork (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  planting_id bigint NOT NULL,
  work_type text NOT NULL CONSTRAINT trace_farmwork_work_type_check
    CHECK (work_type IN ('fertilizing', 'spraying', 'irrigation', 'weeding', 'other')),
  product text,
  dose double precision CONSTRAINT trace_farmwork_dose_check CHECK (dose >= 0),
  dose_unit text,
  operator text,
  done_at timestamptz NOT NULL,
  -- Days after a spraying before the plot may be harvested: required for spraying.
  phi_days integer CONSTRAINT trace_farmwork_phi_days_check
    CHECK ((phi_days IS NULL OR phi_days BETWEEN 0 AND 365)
           AND (work_type <> 'spraying' OR phi_days IS NOT NULL)),
  remark text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint,
  updated_by bigint,
  CONSTRAINT trace_farmwork_planting_id_fk FOREIGN KEY (tenant_id, planting_id)
    REFERENCES trace_planting (tenant_id, id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX trace_farmwork_tenant_id_id_key ON trace_farmwork (tenant_id, id);
CREATE INDEX trace_farmwork_planting_id_idx ON trace_farmwork (planting_id);

CREATE TABLE trace_harvest (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  batch_no text,
  planting_id bigint NOT NULL,
  harvested_at timestamptz NOT NULL,
  quantity double precision NOT NULL CONSTRAINT trace_harvest_quantity_check CHECK (quantity > 0),
  unit text DEFAULT 'kg',
  grade text,
  recalled_at timestamptz,
  recall_reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint,
  updated_by bigint,
  CONSTRAINT trace_harvest_planting_id_fk FOREIGN KEY (tenant_id, planting_id)
    REFERENCES trace_planting (tenant_id, id)
);
CREATE UNIQUE INDEX trace_harvest_tenant_id_id_key ON trace_harvest (tenant_id, id);
CREATE UNIQUE INDEX trace_harvest_batch_no_key ON trace_harvest (tenant_id, batch_no);
CREATE INDEX trace_harvest_planting_id_idx ON trace_harvest (planting_id);

CREATE TABLE trace_process (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  process_no text,
  process_type text NOT NULL CONSTRAINT trace_process_process_type_check
    CHECK (process_type IN ('washing', 'sorting', 'drying', 'milling', 'cutting', 'other')),
  started_at timestamptz NOT NULL,
  ended_at timestamptz,
  expected_yield double precision NOT NULL
    CONSTRAINT trace_process_expected_yield_check CHECK (expected_yield > 0 AND expected_yield <= 1),
  output_quantity double precision
    CONSTRAINT trace_process_output_quantity_check CHECK (output_quantity >= 0),
  output_unit text DEFAULT 'kg',
  recalled_at timestamptz,
  recall_reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint,
  updated_by bigint
);
CREATE UNIQUE INDEX trace_process_tenant_id_id_key ON trace_process (tenant_id, id);
CREATE UNIQUE INDEX trace_process_process_no_key ON trace_process (tenant_id, process_no);

CREATE TABLE trace_process_input (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  process_id bigint NOT NULL,
  harvest_id bigint NOT NULL,
  quantity double precision NOT NULL
    CONSTRAINT trace_process_input_quantity_check CHECK (quantity > 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint,
  updated_by bigint,
  CONSTRAINT trace_process_input_process_id_fk FOREIGN KEY (tenant_id, process_id)
    REFERENCES trace_process (tenant_id, id) ON DELETE CASCADE,
  CONSTRAINT trace_process_input_harvest_id_fk FOREIGN KEY (tenant_id, harvest_id)
    REFERENCES trace_harvest (tenant_id, id)
);
CREATE UNIQUE INDEX trace_process_input_tenant_id_id_key ON trace_process_input (tenant_id, id);
CREATE UNIQUE INDEX trace_process_input_process_id_harvest_id_key
  ON trace_process_input (tenant_id, process_id, harvest_id);
CREATE INDEX trace_process_input_process_id_idx ON trace_process_input (process_id);
CREATE INDEX trace_process_input_harvest_id_idx ON trace_process_input (harvest_id);

CREATE TABLE trace_package (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  -- 12 characters of Crockford base 32, made by the server.
  trace_code text NOT NULL
    CONSTRAINT trace_package_trace_code_check CHECK (trace_code ~ '^[0-9A-HJKMNP-TV-Z]{12}$'),
  harvest_id bigint,
  process_id bigint,
  gtin text CONSTRAINT trace_package_gtin_check CHECK (gtin ~ '^[0-9]{14}$'),
  lot text,
  package_count integer NOT NULL
    CONSTRAINT trace_package_package_count_check CHECK (package_count > 0),
  net_quantity double precision NOT NULL
    CONSTRAINT trace_package_net_quantity_check CHECK (net_quantity > 0),
  unit text DEFAULT 'kg',
  packed_at timestamptz NOT NULL,
  best_before timestamptz,
  recalled_at timestamptz,
  recall_reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint,
  updated_by bigint,
  -- Packed from one harvest batch or one process, never both nor neither.
  CONSTRAINT trace_package_source_check CHECK (num_nonnulls(harvest_id, process_id) = 1),
  CONSTRAINT trace_package_harvest_id_fk FOREIGN KEY (tenant_id, harvest_id)
    REFERENCES trace_harvest (tenant_id, id),
  CONSTRAINT trace_package_process_id_fk FOREIGN KEY (tenant_id, process_id)
    REFERENCES trace_process (tenant_id, id)
);
CREATE UNIQUE INDEX trace_package_tenant_id_id_key ON trace_package (tenant_id, id);
-- Unique across tenants: the public look-up (/traceHome?code=) finds a code without a tenant.
-- Named as the entity kit names its per-tenant key, which it then finds already made.
CREATE UNIQUE INDEX trace_package_trace_code_key ON trace_package (trace_code);
CREATE INDEX trace_package_harvest_id_idx ON trace_package (harvest_id);
CREATE INDEX trace_package_process_id_idx ON trace_package (process_id);

CREATE TABLE trace_shipment (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  package_id bigint NOT NULL,
  package_count integer NOT NULL
    CONSTRAINT trace_shipment_package_count_check CHECK (package_count > 0),
  carrier text,
  vehicle text,
  from_place text NOT NULL,
  to_place text NOT NULL,
  departed_at timestamptz NOT NULL,
  arrived_at timestamptz,
  -- [{ "at": ISO time, "celsius": number }], as recorded on the way.
  temperatures jsonb CONSTRAINT trace_shipment_temperatures_check
    CHECK (temperatures IS NULL OR jsonb_typeof(temperatures) = 'array'),
  remark text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint,
  updated_by bigint,
  CONSTRAINT trace_shipment_arrived_at_check CHECK (arrived_at IS NULL OR arrived_at >= departed_at),
  CONSTRAINT trace_shipment_package_id_fk FOREIGN KEY (tenant_id, package_id)
    REFERENCES trace_package (tenant_id, id)
);
CREATE UNIQUE INDEX trace_shipment_tenant_id_id_key ON trace_shipment (tenant_id, id);
CREATE INDEX trace_shipment_package_id_idx ON trace_shipment (package_id);

-- One row per public look-up of a code (GET /api/trace/public/{code}): first-scan time and scan
-- count, and where from (a hash of the client's address, never the address).
CREATE TABLE trace_scan (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  package_id bigint NOT NULL,
  scanned_at timestamptz NOT NULL DEFAULT now(),
  client_hash text CHECK (length(client_hash) <= 128),
  user_agent text CHECK (length(user_agent) <= 512),
  CONSTRAINT trace_scan_package_id_fk FOREIGN KEY (tenant_id, package_id)
    REFERENCES trace_package (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX trace_scan_package_idx ON trace_scan (package_id, scanned_at);

-- Per tenant: what the public page shows and how it looks (/traceabilitySystem/traceHomeMode).
-- sections: { "<section>": true|false } for the page's sections (product, producer, base,
-- farmwork, sensors, processing, logistics, scans); a section not named is shown.
CREATE TABLE trace_page_setting (
  tenant_id bigint PRIMARY KEY REFERENCES tenant(id) ON DELETE CASCADE,
  title text CHECK (length(title) <= 64),
  color text CHECK (color ~ '^#[0-9A-Fa-f]{6}$'),
  logo text CHECK (length(logo) <= 1024),
  sections jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(sections) = 'object'),
  contact text CHECK (length(contact) <= 255),
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by bigint
);

-- What a harvest batch gave away: the processing that takes from it plus what is packed straight
-- from it (the mass rule: never above its quantity). In grams' precision.
CREATE FUNCTION trace_harvest_taken(harvest bigint) RETURNS double precision
LANGUAGE sql STABLE AS $$
  SELECT round((
    coalesce((SELECT sum(i.quantity::numeric) FROM trace_process_input i
               WHERE i.harvest_id = harvest), 0)
    + coalesce((SELECT sum(p.package_count * p.net_quantity::numeric) FROM trace_package p
                 WHERE p.harvest_id = harvest), 0)), 3)::float8
$$;

CREATE FUNCTION trace_process_input_total(process bigint) RETURNS double precision
LANGUAGE sql STABLE AS $$
  SELECT round(coalesce(sum(i.quantity::numeric), 0), 3)::float8
    FROM trace_process_input i WHERE i.process_id = process
$$;

CREATE FUNCTION trace_process_packed(process bigint) RETURNS double precision
LANGUAGE sql STABLE AS $$
  SELECT round(coalesce(sum(p.package_count * p.net_quantity::numeric), 0), 3)::float8
    FROM trace_package p WHERE p.process_id = process
$$;

CREATE FUNCTION trace_package_shipped(package bigint) RETURNS integer
LANGUAGE sql STABLE AS $$
  SELECT coalesce(sum(s.package_count), 0)::int FROM trace_shipment s WHERE s.package_id = package
$$;

-- Recall flows forwards, computed on every read (never copied): a harvest batch is recalled when
-- it is; a process when it is or any harvest batch it takes from is; a package batch when it is
-- or its source is. SECURITY INVOKER: the caller's row-level security applies inside.
CREATE FUNCTION trace_harvest_recalled(harvest bigint) RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM trace_harvest h WHERE h.id = harvest AND h.recalled_at IS NOT NULL)
$$;

CREATE FUNCTION trace_process_recalled(process bigint) RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM trace_process p WHERE p.id = process AND p.recalled_at IS NOT NULL)
      OR EXISTS (SELECT 1 FROM trace_process_input i JOIN trace_harvest h ON h.id = i.harvest_id
                  WHERE i.process_id = process AND h.recalled_at IS NOT NULL)
$$;

CREATE FUNCTION trace_package_recalled(package bigint) RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM trace_package p
                  WHERE p.id = package
                    AND (p.recalled_at IS NOT NULL
                         OR (p.harvest_id IS NOT NULL AND trace_harvest_recalled(p.harvest_id))
                         OR (p.process_id IS NOT NULL AND trace_process_recalled(p.process_id))))
$$;
