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

DO $$
DECLARE
  t record;
BEGIN
  FOR t IN
    SELECT c.table_name FROM information_schema.columns c
    JOIN information_schema.tables tb ON tb.table_schema = c.table_schema AND tb.table_name = c.table_name
    WHERE c.table_schema = 'public' AND c.column_name = 'tenant_id' AND tb.table_type = 'BASE TABLE'
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
