import type { CameraListItem } from '@shuili/contract';
import type { Sql } from '../../db/database';

/** A camera as the snapshot call needs it. */
export interface CameraForSnapshot {
  id: string;
  cameraName: string;
  deviceId: string | null;
  snapshotUrl: string | null;
}

/**
 * Rows of video_camera; run inside db.tenant, so row-level security keeps the caller's tenant
 * and, for a user confined to zones, the cameras of those zones (tenancy.sql). A camera's
 * device is joined under the device policy: one the caller may not see shows as none.
 */
export const cameraRepo = {
  /** The enabled cameras, optionally of one zone and every zone below it, by name. */
  async list(sql: Sql, zoneId: string | undefined): Promise<CameraListItem[]> {
    const { rows } = await sql.query<CameraListItem>(
      `SELECT c.id::text AS id, c.camera_name AS "cameraName", c.zone_id::text AS "zoneId",
              z.zone_name AS "zoneName", d.id::text AS "deviceId", d.device_name AS "deviceName",
              d.device_no AS "deviceNo", d.online, c.stream_type AS "streamType",
              c.stream_url AS "streamUrl", c.snapshot_url AS "snapshotUrl",
              c.lng::float8 AS lng, c.lat::float8 AS lat
         FROM video_camera c
         LEFT JOIN sys_zone z ON z.id = c.zone_id
         LEFT JOIN iot_device d ON d.id = c.camera_device_id
        WHERE c.status = 1
          AND ($1::bigint IS NULL OR c.zone_id IN (
                WITH RECURSIVE below(id) AS (
                  SELECT id FROM sys_zone WHERE id = $1::bigint
                  UNION SELECT s.id FROM sys_zone s JOIN below ON s.zone_parent = below.id)
                SELECT id FROM below))
        ORDER BY c.camera_name, c.id`,
      [zoneId ?? null],
    );
    return rows;
  },

  async forSnapshot(sql: Sql, id: string): Promise<CameraForSnapshot | undefined> {
    const { rows } = await sql.query<CameraForSnapshot>(
      `SELECT c.id::text AS id, c.camera_name AS "cameraName", d.id::text AS "deviceId",
              c.snapshot_url AS "snapshotUrl"
         FROM video_camera c
         LEFT JOIN iot_device d ON d.id = c.camera_device_id
        WHERE c.id = $1`,
      [id],
    );
    return rows[0];
  },

  /** The product kind of a device the caller may see (undefined: none such). */
  async deviceKind(sql: Sql, deviceId: string): Promise<string | undefined> {
    const { rows } = await sql.query<{ kind: string }>(
      `SELECT p.device_kind AS kind FROM iot_device d JOIN iot_product p ON p.id = d.product_id
        WHERE d.id = $1`,
      [deviceId],
    );
    return rows[0]?.kind;
  },
};
