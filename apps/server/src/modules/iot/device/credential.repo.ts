import type { Sql } from '../../../db/database';

/** A device as its credential needs it: who it is on the broker. */
export interface CredentialDevice {
  deviceId: string;
  deviceNo: string;
  tenantCode: string;
}

/** SQL of iot_device_credential (docs/iot.md). Rows hold hashes only, never secrets. */
export const credentialRepo = {
  /** The device in the current tenant, locked so concurrent rotations run one after the other. */
  async lockDevice(sql: Sql, deviceId: string): Promise<CredentialDevice | undefined> {
    const { rows } = await sql.query<{ id: string; device_no: string; tenant_code: string }>(
      `SELECT d.id::text AS id, d.device_no, t.tenant_code
         FROM iot_device d JOIN tenant t ON t.id = d.tenant_id
        WHERE d.id = $1 FOR UPDATE OF d`,
      [deviceId],
    );
    const row = rows[0];
    return row && { deviceId: row.id, deviceNo: row.device_no, tenantCode: row.tenant_code };
  },

  /** Every device of a tenant (system context: the demo seed). */
  async devicesOfTenant(
    sql: Sql,
    tenantCode: string,
  ): Promise<Array<CredentialDevice & { tenantId: string }>> {
    const { rows } = await sql.query<{
      id: string;
      device_no: string;
      tenant_id: string;
    }>(
      `SELECT d.id::text AS id, d.device_no, d.tenant_id::text AS tenant_id
         FROM iot_device d JOIN tenant t ON t.id = d.tenant_id
        WHERE t.tenant_code = $1 ORDER BY d.id FOR UPDATE OF d`,
      [tenantCode],
    );
    return rows.map((row) => ({
      deviceId: row.id,
      deviceNo: row.device_no,
      tenantId: row.tenant_id,
      tenantCode,
    }));
  },

  async revoke(sql: Sql, tenantId: string, deviceId: string): Promise<number> {
    const { rows } = await sql.query(
      `UPDATE iot_device_credential SET revoked_at = now()
        WHERE tenant_id = $1 AND device_id = $2 AND revoked_at IS NULL RETURNING id`,
      [tenantId, deviceId],
    );
    return rows.length;
  },

  async insert(sql: Sql, tenantId: string, deviceId: string, secretHash: string): Promise<void> {
    await sql.query(
      'INSERT INTO iot_device_credential (tenant_id, device_id, secret_hash) VALUES ($1, $2, $3)',
      [tenantId, deviceId, secretHash],
    );
  },

  /**
   * Which of the credentials are still live, their tenant in service (system context:
   * connections of every tenant).
   */
  async liveOf(sql: Sql, credentialIds: string[]): Promise<Set<string>> {
    const { rows } = await sql.query<{ id: string }>(
      `SELECT c.id::text AS id FROM iot_device_credential c JOIN tenant t ON t.id = c.tenant_id
        WHERE c.id = ANY($1::bigint[]) AND c.revoked_at IS NULL
          AND shuili_tenant_active(t.status, t.start_time, t.end_time)`,
      [credentialIds],
    );
    return new Set(rows.map((row) => row.id));
  },

  /**
   * The live credential of a device named by its broker identity, if its tenant is enabled and
   * within its period (system context: authentication happens before any tenant is known). Bound
   * to the device's id: a connection made with it belongs to this device, never to a later one
   * that takes the same number.
   */
  async liveCredential(
    sql: Sql,
    tenantCode: string,
    deviceNo: string,
  ): Promise<{ credentialId: string; deviceId: string; secretHash: string } | undefined> {
    const { rows } = await sql.query<{ id: string; device_id: string; secret_hash: string }>(
      `SELECT c.id::text AS id, d.id::text AS device_id, c.secret_hash
         FROM tenant t
         JOIN iot_device d ON d.tenant_id = t.id AND d.device_no = $2
         JOIN iot_device_credential c ON c.tenant_id = t.id AND c.device_id = d.id AND c.revoked_at IS NULL
        WHERE t.tenant_code = $1 AND shuili_tenant_active(t.status, t.start_time, t.end_time)`,
      [tenantCode, deviceNo],
    );
    const row = rows[0];
    return row && { credentialId: row.id, deviceId: row.device_id, secretHash: row.secret_hash };
  },
};
