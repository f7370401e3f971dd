import type { Database, Sql } from '../../db/database';

export interface NewDeviceFile {
  deviceId: string;
  fileKind: 'image' | 'file';
  originalName: string;
  contentType: string;
  sizeKb: number;
  storageKey: string;
  /** Null for a device's own upload. */
  userId: string | null;
}

export interface StoredDeviceFile {
  id: string;
  deviceId: string;
  fileKind: string;
  originalName: string;
  contentType: string;
  sizeKb: number;
  storageKey: string;
}

const COLUMNS = `id::text AS id, device_id::text AS "deviceId", file_kind AS "fileKind",
  original_name AS "originalName", content_type AS "contentType", size_kb AS "sizeKb",
  storage_key AS "storageKey"`;

/** Rows of iot_device_file; run inside db.tenant, so only the caller's tenant is reachable. */
export const deviceFileRepo = {
  async deviceExists(sql: Sql, deviceId: string): Promise<boolean> {
    const { rows } = await sql.query('SELECT 1 FROM iot_device WHERE id = $1', [deviceId]);
    return rows.length > 0;
  },

  /** The tenant of a device a device's own credentials named (outside any tenant yet). */
  async tenantOfDevice(db: Database, deviceId: string): Promise<string | undefined> {
    const { rows } = await db.system((sql) =>
      sql.query<{ tenant_id: string }>('SELECT tenant_id::text FROM iot_device WHERE id = $1', [
        deviceId,
      ]),
    );
    return rows[0]?.tenant_id;
  },

  async insert(sql: Sql, tenantId: string, file: NewDeviceFile): Promise<string> {
    const { rows } = await sql.query<{ id: string }>(
      `INSERT INTO iot_device_file (tenant_id, device_id, file_kind, original_name, content_type, size_kb,
                                    storage_key, created_by, updated_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING id::text AS id`,
      [
        tenantId,
        file.deviceId,
        file.fileKind,
        file.originalName,
        file.contentType,
        file.sizeKb,
        file.storageKey,
        file.userId,
      ],
    );
    return rows[0]!.id;
  },

  async byId(sql: Sql, id: string): Promise<StoredDeviceFile | undefined> {
    const { rows } = await sql.query<StoredDeviceFile>(
      `SELECT ${COLUMNS} FROM iot_device_file WHERE id = $1`,
      [id],
    );
    return rows[0];
  },

  async remove(sql: Sql, id: string): Promise<string | undefined> {
    const { rows } = await sql.query<{ storage_key: string }>(
      'DELETE FROM iot_device_file WHERE id = $1 RETURNING storage_key',
      [id],
    );
    return rows[0]?.storage_key;
  },
};
