-- References between tenant tables are now declared per entity as (tenant_id, id) keys, checked
-- at the end of each statement (entity-ddl.ts). These single-column ones from 001 would act
-- first (nulling a user's organisation, or refusing a tenant's removal), so they go.
ALTER TABLE sys_user DROP CONSTRAINT IF EXISTS sys_user_org_id_fkey;
ALTER TABLE sys_org DROP CONSTRAINT IF EXISTS sys_org_org_parent_fkey;
