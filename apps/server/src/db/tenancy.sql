-- Applied after every migration run (idempotent): the restricted application role, its grants,
-- and row-level security on EVERY table that has a tenant_id column, so none can be forgotten.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'shuili_app') THEN
    CREATE ROLE shuili_app NOLOGIN;
  END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
  -- Another database of the same cluster created it at the same moment.
  NULL;
END $$;

-- The connecting user must be able to SET ROLE to it (a non-superuser owner, as on managed
-- PostgreSQL, is not a member by default).
DO $$
BEGIN
  EXECUTE format('GRANT shuili_app TO %I', current_user);
EXCEPTION WHEN OTHERS THEN
  -- Already a member, or a superuser (who may SET ROLE to any role anyway).
  NULL;
END $$;

GRANT USAGE ON SCHEMA public TO shuili_app;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO shuili_app;

-- Deny by default: the application role gets tables with a tenant_id (below, under RLS) and
-- nothing else, so a new platform table is never readable by tenants by accident.
DO $$
DECLARE
  t record;
BEGIN
  FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = 'public' LOOP
    EXECUTE format('REVOKE ALL ON %I FROM shuili_app', t.tablename);
  END LOOP;
END $$;

-- The tables (partitions included) that have every one of the columns named.
CREATE OR REPLACE FUNCTION pg_temp.tables_with(VARIADIC wanted text[]) RETURNS SETOF text
LANGUAGE sql STABLE AS $$
  SELECT tb.table_name::text FROM information_schema.tables tb
   WHERE tb.table_schema = 'public' AND tb.table_type = 'BASE TABLE'
     AND NOT EXISTS (SELECT unnest(wanted)
                     EXCEPT SELECT c.column_name::text FROM information_schema.columns c
                             WHERE c.table_schema = 'public' AND c.table_name = tb.table_name)
$$;

DO $$
DECLARE
  t record;
BEGIN
  FOR t IN SELECT table_name FROM pg_temp.tables_with('tenant_id') AS table_name
  LOOP
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO shuili_app', t.table_name);
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t.table_name);
    EXECUTE format('DROP POLICY IF EXISTS tenant_isolation ON %I', t.table_name);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I USING (tenant_id = nullif(current_setting(''app.tenant_id'', true), '''')::bigint) '
      'WITH CHECK (tenant_id = nullif(current_setting(''app.tenant_id'', true), '''')::bigint)', t.table_name);
  END LOOP;
END $$;

-- The tenant table is keyed by id itself: a tenant context sees only its own row and may change
-- only its descriptive columns (never its code, period, status or platform flag).
GRANT SELECT ON tenant TO shuili_app;
GRANT UPDATE (tenant_name, tenant_name_i18n, domain, contact, email, tel, updated_at) ON tenant TO shuili_app;
ALTER TABLE tenant ENABLE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS tenant_isolation ON tenant;
CREATE POLICY tenant_isolation ON tenant
  USING (id = nullif(current_setting('app.tenant_id', true), '')::bigint)
  WITH CHECK (id = nullif(current_setting('app.tenant_id', true), '')::bigint);

-- Device scope (zones: issue 15; projects: issue 16): a caller confined to zones (app.zone_ids:
-- their zones and every zone below, comma-joined) or bound to projects (app.project_ids), or
-- both, sees and writes only the devices inside every confinement given (empty: not confined
-- that way), and only the rows of every table keyed by a device (telemetry, commands, alarms,
-- files, ...). A restrictive policy: it narrows what tenant_isolation allows, never widens it.
-- The device check reads iot_device under its own policy, so the rule lives in one place. Rows
-- of no device (a product-wide alarm rule, the history of a deleted device) are the whole
-- tenant's: a confined caller neither sees nor writes them. (zone_scope: its former name.)
DROP POLICY IF EXISTS zone_scope ON iot_device;
DROP POLICY IF EXISTS device_scope ON iot_device;
CREATE POLICY device_scope ON iot_device AS RESTRICTIVE
  USING ((coalesce(current_setting('app.zone_ids', true), '') = ''
          OR zone_id = ANY (string_to_array(current_setting('app.zone_ids', true), ',')::bigint[]))
     AND (coalesce(current_setting('app.project_ids', true), '') = ''
          OR project_id = ANY (string_to_array(current_setting('app.project_ids', true), ',')::bigint[])));

DO $$
DECLARE
  t record;
BEGIN
  FOR t IN SELECT table_name FROM pg_temp.tables_with('tenant_id', 'device_id') AS table_name
  LOOP
    EXECUTE format('DROP POLICY IF EXISTS zone_scope ON %I', t.table_name);
    EXECUTE format('DROP POLICY IF EXISTS device_scope ON %I', t.table_name);
    EXECUTE format(
      'CREATE POLICY device_scope ON %I AS RESTRICTIVE USING ('
      '(coalesce(current_setting(''app.zone_ids'', true), '''') = '''' '
      'AND coalesce(current_setting(''app.project_ids'', true), '''') = '''') '
      'OR device_id IN (SELECT id FROM iot_device))', t.table_name);
  END LOOP;
END $$;

-- Cameras (issue 19, video_camera: an entity table, made before this script runs) belong to a
-- zone rather than a device: a caller confined to zones sees and writes only the cameras of
-- those zones. Its device is read under the device policy where it is joined (a device the
-- caller may not see shows as none, and receives no snapshot of theirs). Restrictive like
-- device_scope, so it only ever narrows tenant_isolation.
DROP POLICY IF EXISTS video_camera_zone_scope ON video_camera;
CREATE POLICY video_camera_zone_scope ON video_camera AS RESTRICTIVE
  USING (coalesce(current_setting('app.zone_ids', true), '') = ''
         OR zone_id = ANY (string_to_array(current_setting('app.zone_ids', true), ',')::bigint[]));
