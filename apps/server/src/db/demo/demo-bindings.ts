import type { Sql } from '../database';

/**
 * Sensor and controller templates (kinds of hardware) and instances (one piece of it on a demo
 * device, bound to the thing-model property it reports or the command channel it drives). The
 * property keys are those of the seeded products (packages/contract/src/iot/products.ts).
 */
const SENSOR_TEMPLATES = [
  [
    'soilFdr',
    'FDR土壤水分传感器',
    'soilMoisture',
    '%',
    0,
    100,
    '东方智感',
    '频域反射法,测体积含水率',
  ],
  ['radarLevel', '雷达水位计', 'waterLevel', 'm', 0, 10, '华水仪表', '非接触测量闸前闸后水位'],
  [
    'pressureTx',
    '管道压力变送器',
    'pressure',
    'MPa',
    0,
    1.6,
    '华水仪表',
    '测量灌溉管网压力,4-20mA',
  ],
  ['emFlow', '电磁流量计', 'flow', 'm³/h', 0, 2000, '华水仪表', '测量管道瞬时流量与累计水量'],
  ['airTemp', '空气温度传感器', 'airTemperature', '°C', -40, 60, '东方智感', '气象站百叶箱内安装'],
] as const;

/** [sensor name, template code, device no., property key, install depth cm] */
const SENSORS: Array<[string, string, string, string, number | null]> = [
  ['1号墒情站 10cm 水分', 'soilFdr', 'SOIL-4D-01', 'soilMoisture10', 10],
  ['1号墒情站 20cm 水分', 'soilFdr', 'SOIL-4D-01', 'soilMoisture20', 20],
  ['1号墒情站 40cm 水分', 'soilFdr', 'SOIL-4D-01', 'soilMoisture40', 40],
  ['1号闸闸前水位', 'radarLevel', 'GATE-1-01', 'upstreamLevel', null],
  ['1号闸闸后水位', 'radarLevel', 'GATE-1-01', 'downstreamLevel', null],
  ['1号阀控器管道压力', 'pressureTx', 'IRR-VALVE-4-01', 'pressure', null],
  ['1号阀控器管道流量', 'emFlow', 'IRR-VALVE-4-01', 'flow', null],
  ['1号泵站出水流量', 'emFlow', 'PUMP-VFD-2-01', 'flow', null],
  ['1号气象站气温', 'airTemp', 'WEATHER-8-01', 'airTemperature', null],
];

/** [code, name, kind, command, channels, unit, min, max, description] */
const CONTROLLER_TEMPLATES = [
  [
    'latchValve',
    '脉冲电磁阀',
    'valve',
    'openValve',
    4,
    'min',
    1,
    1440,
    '太阳能阀控器驱动的自保持电磁阀,按通道开关,开阀时长1-1440分钟',
  ],
  [
    'vfdPump',
    '变频水泵',
    'pump',
    'startPump',
    2,
    'Hz',
    20,
    50,
    '泵站变频器驱动的水泵,启停与设定频率20-50Hz',
  ],
  [
    'gateHoist',
    '螺杆式启闭机',
    'gate',
    'setGateOpening',
    1,
    'm',
    0,
    3,
    '电动启闭机驱动的平板闸门,开度0-3米',
  ],
] as const;

/** [controller name, template code, device no., channel, state property key] */
const CONTROLLERS: Array<[string, string, string, number, string]> = [
  ['1号阀控器 1路阀门', 'latchValve', 'IRR-VALVE-4-01', 1, 'valve1State'],
  ['1号阀控器 2路阀门', 'latchValve', 'IRR-VALVE-4-01', 2, 'valve2State'],
  ['1号阀控器 3路阀门', 'latchValve', 'IRR-VALVE-4-01', 3, 'valve3State'],
  ['1号阀控器 4路阀门', 'latchValve', 'IRR-VALVE-4-01', 4, 'valve4State'],
  ['1号泵站 1号泵', 'vfdPump', 'PUMP-VFD-2-01', 1, 'pump1Running'],
  ['1号泵站 2号泵', 'vfdPump', 'PUMP-VFD-2-01', 2, 'pump2Running'],
  ['1号闸门启闭机', 'gateHoist', 'GATE-1-01', 1, 'gateOpening'],
];

/** Ids by a key column of the tenant's rows. */
async function idsBy(sql: Sql, table: string, column: string, tenantId: string) {
  const { rows } = await sql.query<{ id: string; key: string }>(
    `SELECT id::text AS id, ${column} AS key FROM ${table} WHERE tenant_id = $1`,
    [tenantId],
  );
  return new Map(rows.map((row) => [row.key, row.id]));
}

export async function seedDemoBindings(sql: Sql, tenantId: string): Promise<void> {
  const factors = await idsBy(sql, 'iot_factor', 'factor_code', tenantId);
  const devices = await idsBy(sql, 'iot_device', 'device_no', tenantId);
  const sensorTemplates = new Map<string, string>();
  for (const [code, name, factor, unit, min, max, maker, description] of SENSOR_TEMPLATES) {
    const factorId = factors.get(factor);
    if (!factorId) continue;
    const { rows } = await sql.query<{ id: string }>(
      `INSERT INTO iot_sensor_template (tenant_id, template_code, template_name, factor_id, unit, min_value,
                                        max_value, manufacturer, description)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id::text AS id`,
      [tenantId, code, name, factorId, unit, min, max, maker, description],
    );
    sensorTemplates.set(code, rows[0]!.id);
  }
  for (const [name, template, deviceNo, propertyKey, depth] of SENSORS) {
    const templateId = sensorTemplates.get(template);
    const deviceId = devices.get(deviceNo);
    if (!templateId || !deviceId) continue;
    await sql.query(
      `INSERT INTO iot_sensor_instance (tenant_id, instance_name, template_id, device_id, property_key, install_depth_cm)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [tenantId, name, templateId, deviceId, propertyKey, depth],
    );
  }
  const controllerTemplates = new Map<string, string>();
  for (const [
    code,
    name,
    kind,
    command,
    channels,
    unit,
    min,
    max,
    description,
  ] of CONTROLLER_TEMPLATES) {
    const { rows } = await sql.query<{ id: string }>(
      `INSERT INTO iot_controller_template (tenant_id, template_code, template_name, control_kind, command_key,
                                            channels, unit, min_value, max_value, description)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id::text AS id`,
      [tenantId, code, name, kind, command, channels, unit, min, max, description],
    );
    controllerTemplates.set(code, rows[0]!.id);
  }
  for (const [name, template, deviceNo, channel, propertyKey] of CONTROLLERS) {
    const templateId = controllerTemplates.get(template);
    const deviceId = devices.get(deviceNo);
    if (!templateId || !deviceId) continue;
    await sql.query(
      `INSERT INTO iot_controller_instance (tenant_id, instance_name, template_id, device_id, channel, property_key)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [tenantId, name, templateId, deviceId, channel, propertyKey],
    );
  }
}
