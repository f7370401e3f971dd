import crypto from 'node:crypto';
import type { ThingModel } from '@shuili/contract';
import type { Database } from '../../../db/database';
import type { Uplink } from './ingest.service';

/** A small thing model with one property of every kind, for the telemetry tests. */
export const TEST_THING_MODEL: ThingModel = {
  properties: [
    {
      key: 'flow',
      name: { en: 'Flow', zh: '流量', tw: '流量' },
      type: 'number',
      unit: 'm³/h',
      min: 0,
      max: 1000,
      precision: 2,
      access: 'r',
    },
    {
      key: 'pressure',
      name: { en: 'Pressure', zh: '压力', tw: '壓力' },
      type: 'number',
      unit: 'MPa',
      min: 0,
      max: 2,
      precision: 3,
      access: 'r',
    },
    {
      key: 'valve',
      name: { en: 'Valve', zh: '阀门', tw: '閥門' },
      type: 'enum',
      options: [
        { value: 0, label: { en: 'Closed', zh: '关', tw: '關' } },
        { value: 1, label: { en: 'Open', zh: '开', tw: '開' } },
      ],
      access: 'rw',
    },
    {
      key: 'running',
      name: { en: 'Running', zh: '运行', tw: '運行' },
      type: 'boolean',
      access: 'r',
    },
    {
      key: 'note',
      name: { en: 'Note', zh: '备注', tw: '備註' },
      type: 'string',
      access: 'r',
    },
  ],
  events: [
    {
      key: 'overcurrent',
      name: { en: 'Overcurrent', zh: '过流', tw: '過流' },
      level: 'fault',
      params: [],
    },
  ],
  commands: [],
};

export interface TestDevice {
  tenantId: string;
  tenantCode: string;
  deviceId: string;
  deviceNo: string;
  productId: string;
}

/**
 * Creates a product with the thing model (TEST_THING_MODEL unless given) and a device of it,
 * named `<namePrefix> <suffix>` where its number is `td-<suffix>`.
 */
export async function createTestDevice(
  db: Database,
  tenantCode: string,
  thingModel: ThingModel = TEST_THING_MODEL,
  namePrefix = 'Test device',
): Promise<TestDevice> {
  const suffix = crypto.randomBytes(4).toString('hex');
  return db.system(async (sql) => {
    const tenant = await sql.query<{ id: string }>(
      'SELECT id::text AS id FROM tenant WHERE tenant_code = $1',
      [tenantCode],
    );
    const tenantId = tenant.rows[0]!.id;
    const product = await sql.query<{ id: string }>(
      `INSERT INTO iot_product (tenant_id, serial_no, product_name, thing_model)
       VALUES ($1, $2, 'Telemetry test product', $3::jsonb) RETURNING id::text AS id`,
      [tenantId, `tp-${suffix}`, JSON.stringify(thingModel)],
    );
    const deviceNo = `td-${suffix}`;
    const device = await sql.query<{ id: string }>(
      `INSERT INTO iot_device (tenant_id, device_no, device_name, product_id)
       VALUES ($1, $2, $3, $4) RETURNING id::text AS id`,
      [tenantId, deviceNo, `${namePrefix} ${suffix}`, product.rows[0]!.id],
    );
    return {
      tenantId,
      tenantCode,
      deviceId: device.rows[0]!.id,
      deviceNo,
      productId: product.rows[0]!.id,
    };
  });
}

/** A telemetry uplink of a test device. */
export function telemetryUplink(
  device: TestDevice,
  payload: unknown,
  receivedAt = Date.now(),
  channel: Uplink['channel'] = 'telemetry',
): Uplink {
  return {
    tenantCode: device.tenantCode,
    deviceNo: device.deviceNo,
    channel,
    payload: Buffer.isBuffer(payload) ? payload : Buffer.from(JSON.stringify(payload)),
    receivedAt,
  };
}
