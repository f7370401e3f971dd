import type { Sql } from '../../../db/database';

/** The caller's tenant, so the primary key (tenant, device, key) serves the reads. */
const TENANT = `nullif(current_setting('app.tenant_id', true), '')::bigint`;

/** A device of an area (its product's kind is one of the area's kinds), as settings list it. */
export interface AreaSettingDeviceRow {
  id: string;
  device_no: string;
  device_name: string | null;
}

export interface AreaSettingRow {
  device_id: string;
  setting_key: string;
  value: unknown;
  updated_at: Date;
  updated_by: string | null;
}

/** SQL of the area settings, run in the caller's tenant context (RLS confines devices and rows). */
export const areaSettingRepo = {
  /** The area's devices the caller may see, one page in id order, or one device. */
  async devices(
    sql: Sql,
    kinds: readonly string[],
    deviceId: string | undefined,
    limit: number,
    offset: number,
  ): Promise<{ rows: AreaSettingDeviceRow[]; total: number }> {
    const where = `p.device_kind = ANY($1::text[]) AND ($2::bigint IS NULL OR d.id = $2)`;
    const { rows } = await sql.query<AreaSettingDeviceRow>(
      `SELECT d.id::text, d.device_no, d.device_name
         FROM iot_device d JOIN iot_product p ON p.id = d.product_id
        WHERE ${where} ORDER BY d.id LIMIT $3 OFFSET $4`,
      [kinds, deviceId ?? null, limit, offset],
    );
    const count = await sql.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM iot_device d JOIN iot_product p ON p.id = d.product_id
        WHERE ${where}`,
      [kinds, deviceId ?? null],
    );
    return { rows, total: count.rows[0]?.total ?? 0 };
  },

  /** A visible device's kind (undefined: no such device for this caller). */
  async deviceKind(sql: Sql, deviceId: string): Promise<string | null | undefined> {
    const { rows } = await sql.query<{ device_kind: string | null }>(
      `SELECT p.device_kind FROM iot_device d LEFT JOIN iot_product p ON p.id = d.product_id
        WHERE d.id = $1`,
      [deviceId],
    );
    return rows.length ? rows[0]!.device_kind : undefined;
  },

  async values(sql: Sql, deviceIds: string[], keys: string[]): Promise<AreaSettingRow[]> {
    const { rows } = await sql.query<AreaSettingRow>(
      `SELECT device_id::text, setting_key, value, updated_at, updated_by
         FROM monitor_area_setting
        WHERE tenant_id = ${TENANT} AND device_id = ANY($1::bigint[])
          AND setting_key = ANY($2::text[])`,
      [deviceIds, keys],
    );
    return rows;
  },

  /** Stores one value (jsonb), or removes it (null: back to the default). */
  async put(
    sql: Sql,
    row: { tenantId: string; deviceId: string; key: string; value: unknown; username: string },
  ): Promise<void> {
    if (row.value === null) {
      await sql.query(
        `DELETE FROM monitor_area_setting
          WHERE tenant_id = $1 AND device_id = $2 AND setting_key = $3`,
        [row.tenantId, row.deviceId, row.key],
      );
      return;
    }
    await sql.query(
      `INSERT INTO monitor_area_setting (tenant_id, device_id, setting_key, value, updated_by)
       VALUES ($1, $2, $3, $4::jsonb, $5)
       ON CONFLICT (tenant_id, device_id, setting_key)
       DO UPDATE SET value = EXCLUDED.value, updated_at = now(), updated_by = EXCLUDED.updated_by`,
      [row.tenantId, row.deviceId, row.key, JSON.stringify(row.value), row.username],
    );
  },
};
