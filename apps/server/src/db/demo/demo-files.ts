import type { FileStorage } from '../../modules/files/file-storage';
import type { Sql } from '../database';
import { gatePhoto, valveBoxPhoto } from './demo-png';

const MAINTENANCE_LOG = `1号闸门控制器 维护记录
日期: 春灌前检修
1. 检查启闭机螺杆、限位开关,加注润滑脂。
2. 校核闸前、闸后雷达水位计零点,误差小于1cm。
3. 更换太阳能板接线端子,电池电压12.8V。
4. 试运行: 开度0→0.5m→0,动作正常,无异响。
检修人: 闸门管理员
`;

const CALIBRATION_CSV = `传感器,标准值,读数,误差
10cm水分(%),25.0,25.4,0.4
20cm水分(%),25.0,24.7,-0.3
40cm水分(%),25.0,25.2,0.2
`;

/** [device no., kind, file name, content type, bytes, age] */
function files(): Array<[string, 'image' | 'file', string, string, Buffer, string]> {
  return [
    ['GATE-1-01', 'image', '1号闸门现场照片.png', 'image/png', gatePhoto(), '20 days'],
    ['IRR-VALVE-4-01', 'image', '1号阀门井安装照片.png', 'image/png', valveBoxPhoto(), '30 days'],
    [
      'GATE-1-01',
      'file',
      '1号闸门维护记录.txt',
      'text/plain',
      Buffer.from(MAINTENANCE_LOG),
      '18 days',
    ],
    [
      'SOIL-4D-01',
      'file',
      '1号墒情站标定记录.csv',
      'text/csv',
      Buffer.from(`\uFEFF${CALIBRATION_CSV}`),
      '25 days',
    ],
  ];
}

/**
 * Photos and documents of demo devices, stored through the file storage as an upload would be,
 * so the file and image screens list them and they download. The images are drawn in code.
 */
export async function seedDemoFiles(
  sql: Sql,
  tenantId: string,
  storage: FileStorage,
  userId: string | undefined,
): Promise<void> {
  const { rows } = await sql.query<{ id: string; device_no: string }>(
    'SELECT id::text AS id, device_no FROM iot_device WHERE tenant_id = $1',
    [tenantId],
  );
  const devices = new Map(rows.map((row) => [row.device_no, row.id]));
  for (const [deviceNo, kind, name, contentType, bytes, age] of files()) {
    const deviceId = devices.get(deviceNo);
    if (!deviceId) continue;
    const key = await storage.put(bytes, { contentType });
    await sql.query(
      `INSERT INTO iot_device_file (tenant_id, device_id, file_kind, original_name, content_type, size_kb,
                                    storage_key, created_by, updated_by, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, now() - $9::interval)`,
      [
        tenantId,
        deviceId,
        kind,
        name,
        contentType,
        Math.ceil(bytes.length / 1024),
        key,
        userId ?? null,
        age,
      ],
    );
  }
}
