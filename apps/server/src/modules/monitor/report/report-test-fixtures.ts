import type { DeviceKind, ThingModel } from '@shuili/contract';
import type { Database } from '../../../db/database';
import { createTestDevice, type TestDevice } from '../../iot/telemetry/telemetry-test-fixtures';

const name = (en: string, zh: string) => ({ en, zh, tw: zh });

/** A metering station: a flow, a volume counter, rain per reading, a pressure and a text. */
export const METER_MODEL: ThingModel = {
  properties: [
    {
      key: 'flow',
      name: name('Flow', '流量'),
      type: 'number',
      unit: 'm³/h',
      min: 0,
      max: 1000,
      precision: 2,
      access: 'r',
    },
    {
      key: 'cumulativeVolume',
      name: name('Cumulative volume', '累计水量'),
      type: 'number',
      unit: 'm³',
      min: 0,
      max: 1e9,
      precision: 1,
      factor: 'cumulativeVolume',
      access: 'r',
    },
    {
      key: 'rainfall',
      name: name('Rainfall', '降雨量'),
      type: 'number',
      unit: 'mm',
      min: 0,
      max: 500,
      precision: 1,
      access: 'r',
    },
    {
      key: 'pressure',
      name: name('Pressure', '压力'),
      type: 'number',
      unit: 'MPa',
      min: 0,
      max: 2,
      precision: 3,
      access: 'r',
    },
    { key: 'note', name: name('Note', '备注'), type: 'string', access: 'r' },
  ],
  events: [],
  commands: [],
};

/** A device of its own product of the given kind (an area's), optionally in a zone. */
export async function createKindDevice(
  db: Database,
  tenantCode: string,
  kind: DeviceKind,
  options: { zoneId?: string; thingModel?: ThingModel; namePrefix?: string } = {},
): Promise<TestDevice> {
  const device = await createTestDevice(
    db,
    tenantCode,
    options.thingModel ?? METER_MODEL,
    options.namePrefix ?? `Report ${kind}`,
  );
  await db.system(async (sql) => {
    await sql.query('UPDATE iot_product SET device_kind = $2 WHERE id = $1', [
      device.productId,
      kind,
    ]);
    if (options.zoneId)
      await sql.query('UPDATE iot_device SET zone_id = $2 WHERE id = $1', [
        device.deviceId,
        options.zoneId,
      ]);
  });
  return device;
}

/** A zone of the tenant (a root). */
export async function createZone(db: Database, tenantId: string, zoneName: string) {
  const { rows } = await db.system((sql) =>
    sql.query<{ id: string }>(
      `INSERT INTO sys_zone (tenant_id, zone_name, zone_code, zone_sequence)
       VALUES ($1, $2, $2, 0) RETURNING id::text`,
      [tenantId, zoneName],
    ),
  );
  return rows[0]!.id;
}
