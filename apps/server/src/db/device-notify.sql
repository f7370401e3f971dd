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
