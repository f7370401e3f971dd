import { DEMO_CAMERA_STREAM } from '@shuili/contract';
import type { Sql } from '../database';

/** [camera name, its zone (demo zone code), its device (CAM-PTZ, seedDemoIot) or null, remark] */
const CAMERAS: Array<[string, string, string | null, string]> = [
  ['东干渠进水闸', 'DEMO-E', 'CAM-PTZ-01', '闸门及上游水位尺'],
  ['西干渠节制闸', 'DEMO-W', 'CAM-PTZ-02', '闸前水位与拦污栅'],
  ['南片一号泵站前池', 'DEMO-S', 'CAM-PTZ-03', '前池水位与泵房入口'],
  ['北片田间监控', 'DEMO-N', null, '田间轮灌组全景（枪机，无云台设备）'],
];

/**
 * The demo district's cameras, one per demo camera device (beside it) and a fixed camera of
 * its own, each in the demo zone it watches, each playing the clip the server serves itself
 * (DEMO_CAMERA_STREAM), so the live grid plays at first sight with nothing else installed.
 * Written once, when the demo tenant is created (seed.ts).
 */
export async function seedDemoCameras(sql: Sql, tenantId: string): Promise<void> {
  const { rows } = await sql.query<{
    id: string;
    device_no: string;
    zone_id: string | null;
    lat: number | null;
    lng: number | null;
  }>(
    `SELECT id::text, device_no, zone_id::text, lat::float8 AS lat, lng::float8 AS lng
       FROM iot_device WHERE tenant_id = $1 AND device_no LIKE 'CAM-PTZ-%'`,
    [tenantId],
  );
  const devices = new Map(rows.map((row) => [row.device_no, row]));
  const zones = await sql.query<{ id: string; zone_code: string }>(
    'SELECT id::text, zone_code FROM sys_zone WHERE tenant_id = $1',
    [tenantId],
  );
  const zoneOf = new Map(zones.rows.map((row) => [row.zone_code, row.id]));
  for (const [index, [name, zoneCode, deviceNo, remark]] of CAMERAS.entries()) {
    const device = deviceNo ? devices.get(deviceNo) : undefined;
    const zoneId = zoneOf.get(zoneCode) ?? device?.zone_id;
    if (!zoneId) continue;
    // Beside its device (a camera looks at what the device measures), else near the centre.
    const lng = (device?.lng ?? 117.0) + 0.0004;
    const lat = (device?.lat ?? 36.6) + 0.0003 * (index + 1);
    await sql.query(
      `INSERT INTO video_camera (tenant_id, camera_name, zone_id, camera_device_id, stream_type,
                                 stream_url, lng, lat, remark, status)
       VALUES ($1, $2, $3, $4, 'hls', $5, $6, $7, $8, 1)
       ON CONFLICT DO NOTHING`,
      [
        tenantId,
        name,
        zoneId,
        device?.id ?? null,
        DEMO_CAMERA_STREAM,
        lng.toFixed(6),
        lat.toFixed(6),
        remark,
      ],
    );
  }
}
