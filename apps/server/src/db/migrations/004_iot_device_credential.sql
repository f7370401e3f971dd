-- Device credentials (docs/iot.md): the MQTT password of a device is a 32-byte random secret,
-- shown once; only its SHA-256 is kept (a high-entropy secret needs no slow hash). A device has
-- at most one live credential: rotating revokes the old row, so a leaked secret stops working.
-- No foreign key to iot_device: entity tables are created after the migrations run; the
-- credential service removes rows of deleted devices.

CREATE TABLE iot_device_credential (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id bigint NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
  device_id bigint NOT NULL,
  secret_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);
CREATE UNIQUE INDEX iot_device_credential_live ON iot_device_credential (tenant_id, device_id)
  WHERE revoked_at IS NULL;
CREATE INDEX iot_device_credential_device ON iot_device_credential (tenant_id, device_id);
