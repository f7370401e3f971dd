-- A device identity ({tenantCode}:{deviceNo}, docs/iot.md) ends with its device: deleting the
-- device, changing its number, or revoking or rotating its secret. Whatever code or node makes
-- the change, in the same transaction the device's secrets stop working (a deleted device's
-- rows go, a renumbered one's are revoked: the administrator issues a new secret for the new
-- number), and the end is announced on the channel `shuili_device` when it commits, so every
-- node forgets its cached credentials and directory entry and ends the identity's MQTT session.
-- Payload: {"tenantId", "deviceId", "credentialId"?, "tenantCode"?, "deviceNo"?}; the identity is
-- absent when it cannot be read any more (a device removed with its whole tenant).
-- Applied after every migration run, beside tenancy.sql (idempotent; iot_device is an entity
-- table, made after the migrations).

CREATE OR REPLACE FUNCTION shuili_device_announce(of_tenant bigint, of_device bigint, of_credential bigint,
  number text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('shuili_device', json_strip_nulls(json_build_object(
    'tenantId', of_tenant::text,
    'deviceId', of_device::text,
    'credentialId', of_credential::text,
    'tenantCode', (SELECT t.tenant_code FROM tenant t WHERE t.id = of_tenant),
    'deviceNo', number))::text);
END $$;

-- The device row: deleted, or its number changed.
CREATE OR REPLACE FUNCTION shuili_device_identity_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM iot_device_credential WHERE tenant_id = OLD.tenant_id AND device_id = OLD.id;
  ELSE
    UPDATE iot_device_credential SET revoked_at = now()
     WHERE tenant_id = OLD.tenant_id AND device_id = OLD.id AND revoked_at IS NULL;
  END IF;
  PERFORM shuili_device_announce(OLD.tenant_id, OLD.id, NULL, OLD.device_no);
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS device_identity_deleted ON iot_device;
CREATE TRIGGER device_identity_deleted AFTER DELETE ON iot_device FOR EACH ROW
  EXECUTE FUNCTION shuili_device_identity_ended();
DROP TRIGGER IF EXISTS device_identity_renumbered ON iot_device;
CREATE TRIGGER device_identity_renumbered AFTER UPDATE OF device_no ON iot_device FOR EACH ROW
  WHEN (OLD.device_no IS DISTINCT FROM NEW.device_no)
  EXECUTE FUNCTION shuili_device_identity_ended();

-- One secret revoked (revoke, rotation, or the device's renumbering above): its connections end.
CREATE OR REPLACE FUNCTION shuili_device_credential_revoked() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM shuili_device_announce(NEW.tenant_id, NEW.device_id, NEW.id,
    (SELECT d.device_no FROM iot_device d WHERE d.id = NEW.device_id));
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS device_credential_revoked ON iot_device_credential;
CREATE TRIGGER device_credential_revoked AFTER UPDATE OF revoked_at ON iot_device_credential
  FOR EACH ROW WHEN (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL)
  EXECUTE FUNCTION shuili_device_credential_revoked();

-- Secrets of devices deleted before these triggers existed (nothing removed them): they could never
-- match a device again (a new device has a new id), but they are no one's.
DELETE FROM iot_device_credential c WHERE NOT EXISTS (SELECT 1 FROM iot_device d WHERE d.id = c.device_id);

-- Alarm rules (iot_alarm_rule, an entity table): each node keeps a tenant's enabled rules while
-- it listens (alarm-rule-cache.ts); any change of a rule, through whatever node, announces the
-- tenant on `shuili_alarm_rule` when it commits, so every node reads them again at once.
CREATE OR REPLACE FUNCTION shuili_alarm_rule_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('shuili_alarm_rule', coalesce(NEW.tenant_id, OLD.tenant_id)::text);
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS alarm_rule_changed ON iot_alarm_rule;
CREATE TRIGGER alarm_rule_changed AFTER INSERT OR UPDATE OR DELETE ON iot_alarm_rule
  FOR EACH ROW EXECUTE FUNCTION shuili_alarm_rule_changed();

-- What ingestion resolves a device to (device-directory.ts: its product and thing model, its
-- name): each node keeps it a minute; a device added, moved to another product or renamed, and a
-- product's thing model changed or the product removed, are announced on `shuili_device_model`
-- when they commit, so every node reads them again at once. Presence writes (online, last_seen)
-- touch none of these columns and announce nothing.
CREATE OR REPLACE FUNCTION shuili_device_model_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'iot_device' THEN
    PERFORM pg_notify('shuili_device_model', NEW.tenant_id || ':' || NEW.id);
  ELSE
    PERFORM pg_notify('shuili_device_model', coalesce(NEW.tenant_id, OLD.tenant_id)::text);
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS device_model_added ON iot_device;
CREATE TRIGGER device_model_added AFTER INSERT ON iot_device
  FOR EACH ROW EXECUTE FUNCTION shuili_device_model_changed();
DROP TRIGGER IF EXISTS device_model_changed ON iot_device;
CREATE TRIGGER device_model_changed AFTER UPDATE OF product_id, device_name ON iot_device
  FOR EACH ROW WHEN (OLD.product_id IS DISTINCT FROM NEW.product_id
                     OR OLD.device_name IS DISTINCT FROM NEW.device_name)
  EXECUTE FUNCTION shuili_device_model_changed();
DROP TRIGGER IF EXISTS product_model_changed ON iot_product;
CREATE TRIGGER product_model_changed AFTER UPDATE OF thing_model OR DELETE ON iot_product
  FOR EACH ROW EXECUTE FUNCTION shuili_device_model_changed();
