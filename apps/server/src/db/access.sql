-- Applied after every migration run, beside tenancy.sql (idempotent).

-- The zones a user is confined to, with every zone below them; NULL when the user has no zones
-- assigned (the whole tenant). One definition for the guard (AccessChecks) and for whoever must
-- know who may see a device (an alarm's recipients).
CREATE OR REPLACE FUNCTION shuili_user_zones(of_user bigint) RETURNS bigint[]
LANGUAGE sql STABLE AS $$
  WITH RECURSIVE zone AS (
    SELECT uz.zone_id AS id FROM sys_user_zone uz WHERE uz.user_id = of_user
    UNION
    SELECT child.id FROM sys_zone child JOIN zone ON child.zone_parent = zone.id)
  SELECT array_agg(id ORDER BY id) FROM zone
$$;

-- The IoT projects a user is bound to (sys_user_project); NULL when none (not confined by
-- project). With shuili_user_zones, the user's device scope (tenancy.sql device_scope).
CREATE OR REPLACE FUNCTION shuili_user_projects(of_user bigint) RETURNS bigint[]
LANGUAGE sql STABLE AS $$
  SELECT array_agg(up.project_id ORDER BY up.project_id) FROM sys_user_project up
   WHERE up.user_id = of_user
$$;

-- Whether a device (its zone and project) is inside a user's device scope: each confinement
-- that is set must hold. One definition for whoever must know who may see a device.
CREATE OR REPLACE FUNCTION shuili_user_sees_device(of_user bigint, zone bigint, project bigint)
RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT (zones IS NULL OR zone = ANY (zones)) AND (projects IS NULL OR project = ANY (projects))
    FROM (SELECT shuili_user_zones(of_user) AS zones, shuili_user_projects(of_user) AS projects) s
$$;

-- Whether a tenant is in service now: enabled and inside its period. One definition for the
-- guard, the device credential checks and the suspension of connections.
CREATE OR REPLACE FUNCTION shuili_tenant_active(status smallint, start_time timestamptz,
  end_time timestamptz) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT status = 1 AND coalesce(start_time <= now(), true) AND coalesce(end_time > now(), true)
$$;

-- The database announces
-- every change that alters what a signed-in user or a connected browser may do, on the channel
-- `shuili_access`, whatever code or node made it, when it commits. Nodes cache each user's live
-- roles, zones and tenant state for a few seconds (AccessChecks) and the broker keeps each
-- browser's live-data filter; an announcement makes every node forget them at once.
-- Payloads: 'u:{userId}' (one user's roles, zones or projects), 't:{tenantId}' (a tenant's roles, grants,
-- zone tree or status: every user of it), 'd:{tenantId}' (where its devices are: live filters).
CREATE OR REPLACE FUNCTION shuili_access_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  row record := coalesce(NEW, OLD);
BEGIN
  IF TG_ARGV[0] = 'user' THEN
    PERFORM pg_notify('shuili_access', 'u:' || row.user_id);
  ELSIF TG_ARGV[0] = 'tenant-self' THEN
    PERFORM pg_notify('shuili_access', 't:' || row.id);
  ELSIF TG_ARGV[0] = 'devices' THEN
    PERFORM pg_notify('shuili_access', 'd:' || row.tenant_id);
  ELSE
    PERFORM pg_notify('shuili_access', 't:' || row.tenant_id);
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS access_changed ON sys_user_role;
CREATE TRIGGER access_changed AFTER INSERT OR DELETE OR UPDATE ON sys_user_role
  FOR EACH ROW EXECUTE FUNCTION shuili_access_changed('user');

DROP TRIGGER IF EXISTS access_changed ON sys_user_zone;
CREATE TRIGGER access_changed AFTER INSERT OR DELETE OR UPDATE ON sys_user_zone
  FOR EACH ROW EXECUTE FUNCTION shuili_access_changed('user');

DROP TRIGGER IF EXISTS access_changed ON sys_user_project;
CREATE TRIGGER access_changed AFTER INSERT OR DELETE OR UPDATE ON sys_user_project
  FOR EACH ROW EXECUTE FUNCTION shuili_access_changed('user');

DROP TRIGGER IF EXISTS access_changed ON sys_role;
CREATE TRIGGER access_changed AFTER DELETE OR UPDATE OF role_code, status ON sys_role
  FOR EACH ROW EXECUTE FUNCTION shuili_access_changed('tenant');

DROP TRIGGER IF EXISTS access_changed ON sys_role_url;
CREATE TRIGGER access_changed AFTER INSERT OR DELETE OR UPDATE ON sys_role_url
  FOR EACH ROW EXECUTE FUNCTION shuili_access_changed('tenant');

DROP TRIGGER IF EXISTS access_changed ON sys_zone;
CREATE TRIGGER access_changed AFTER INSERT OR DELETE OR UPDATE OF zone_parent ON sys_zone
  FOR EACH ROW EXECUTE FUNCTION shuili_access_changed('tenant');

DROP TRIGGER IF EXISTS access_changed ON tenant;
CREATE TRIGGER access_changed AFTER DELETE OR UPDATE OF status, start_time, end_time ON tenant
  FOR EACH ROW EXECUTE FUNCTION shuili_access_changed('tenant-self');

-- Ingestion updates devices all the time (online, last seen): only a move (to another zone or
-- project) or a new number counts.
DROP TRIGGER IF EXISTS access_changed ON iot_device;
CREATE TRIGGER access_changed AFTER INSERT OR DELETE ON iot_device
  FOR EACH ROW EXECUTE FUNCTION shuili_access_changed('devices');
DROP TRIGGER IF EXISTS access_moved ON iot_device;
CREATE TRIGGER access_moved AFTER UPDATE OF zone_id, project_id, device_no ON iot_device
  FOR EACH ROW WHEN (OLD.zone_id IS DISTINCT FROM NEW.zone_id
                     OR OLD.project_id IS DISTINCT FROM NEW.project_id
                     OR OLD.device_no IS DISTINCT FROM NEW.device_no)
  EXECUTE FUNCTION shuili_access_changed('devices');

-- A password-reset link stops working once the account's password or e-mail changes by any
-- path (the user, an administrator, another link): it was sent for the account as it was.
CREATE OR REPLACE FUNCTION shuili_reset_links_end() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE password_reset_link SET used_at = now() WHERE user_id = NEW.id AND used_at IS NULL;
  RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS reset_links_end ON sys_user;
CREATE TRIGGER reset_links_end AFTER UPDATE OF password_hash, email ON sys_user
  FOR EACH ROW WHEN (OLD.password_hash IS DISTINCT FROM NEW.password_hash
                     OR OLD.email IS DISTINCT FROM NEW.email)
  EXECUTE FUNCTION shuili_reset_links_end();
