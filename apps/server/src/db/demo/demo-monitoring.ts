import {
  fertigationProgramEntity,
  fertilizerRecipeEntity,
  formatValveMember,
  productOfKind,
  ROLE_ADMIN,
  rotationScheduleEntity,
  soilMoistureRuleEntity,
  valveGroupEntity,
  type DeviceKind,
  type EntityDef,
} from '@shuili/contract';
import type { EntityContext, EntityHooks } from '../../entity/entity-hooks';
import { IRRIGATION_ENTITY_HOOKS } from '../../modules/monitor/irrigation/irrigation-entity.hooks';
import { MONITOR_RULE_HOOKS } from '../../modules/monitor/monitor-rules.module';
import { seedDemoRatingCurves } from './demo-hydrology';
import type { Sql } from '../database';

/**
 * The demo district's monitoring set-up: alarm rules of every area (pump outlet pressure and
 * forebay dry-run level, soil drought, heavy rain, fertigation EC, pipe pressure, gate level),
 * a few alarms of the past weeks (some still waiting for acknowledgement), valve groups with a
 * rotation schedule and a soil-moisture rule, a fertilizer recipe and a program. Written once,
 * when the demo tenant is created (seed.ts), as their screens would write them (the entities'
 * own hooks keep the scheduler's triggers), so what users change or delete later stays so.
 */

/** [name, product kind, property, kind, low, high, hysteresis, level] */
const RULES: Array<
  [string, DeviceKind, string, string, number | null, number | null, number, string]
> = [
  ['泵站出口压力过高', 'pump_station', 'outletPressure', 'above', null, 0.4, 0.02, 'orange'],
  ['前池低水位(干运行)', 'pump_station', 'forebayLevel', 'below', 1, null, 0.1, 'red'],
  ['土壤干旱(20cm)', 'soil_moisture', 'soilMoisture20', 'below', 15, null, 1, 'yellow'],
  ['1小时强降雨', 'weather_station', 'rainfall', 'above', null, 8, 0, 'orange'],
  ['施肥EC超限', 'water_fertilizer', 'ec', 'above', null, 2.8, 0.1, 'orange'],
  ['管道压力过低(爆管)', 'irrigation_valve', 'pressure', 'below', 0.12, null, 0.02, 'red'],
  ['闸前水位超警戒', 'sluice_gate', 'upstreamLevel', 'above', null, 2.6, 0.05, 'yellow'],
  ['径流小区强产流', 'sediment_station', 'flow', 'above', null, 0.3, 0.02, 'orange'],
];

/** [rule, device no., value, threshold, started (ago), cleared (ago) or null, acknowledged] */
const ALARMS: Array<[string, string, number, number, string, string | null, boolean]> = [
  ['前池低水位(干运行)', 'PUMP-VFD-2-01', 0.86, 1, '9 days', '9 days - 5 hours', true],
  ['前池低水位(干运行)', 'PUMP-VFD-2-01', 0.93, 1, '2 days', '2 days - 4 hours', false],
  ['1小时强降雨', 'WEATHER-8-01', 11.6, 8, '6 days', '6 days - 1 hour', true],
  ['施肥EC超限', 'FERT-4CH-01', 3.05, 2.8, '4 days', '4 days - 20 minutes', false],
  ['管道压力过低(爆管)', 'IRR-VALVE-4-01', 0.08, 0.12, '3 days', '3 days - 2 hours', true],
  ['土壤干旱(20cm)', 'SOIL-4D-01', 14.2, 15, '5 hours', null, false],
  ['泵站出口压力过高', 'PUMP-VFD-2-01', 0.43, 0.4, '40 minutes', null, false],
  ['径流小区强产流', 'SEDIMENT-1-01', 0.41, 0.3, '8 days', '8 days - 50 minutes', true],
];

/** Hooks of the entities seeded here, as the generic routes run them. */
const HOOKS = new Map<EntityDef, EntityHooks>([...IRRIGATION_ENTITY_HOOKS, ...MONITOR_RULE_HOOKS]);

export async function seedDemoMonitoring(
  sql: Sql,
  tenantId: string,
  [adminId]: string[],
): Promise<void> {
  const { rows } = await sql.query<{ id: string; device_no: string }>(
    'SELECT id::text, device_no FROM iot_device WHERE tenant_id = $1',
    [tenantId],
  );
  const device = new Map(rows.map((row) => [row.device_no, row.id]));
  const products = await sql.query<{ id: string; device_kind: string }>(
    'SELECT id::text, device_kind FROM iot_product WHERE tenant_id = $1 AND serial_no = ANY($2)',
    [tenantId, RULES.map(([, kind]) => productOfKind(kind).serialNo)],
  );
  const productOf = new Map(products.rows.map((row) => [row.device_kind, row.id]));

  const ruleIds = new Map<string, string>();
  for (const [name, kind, key, condition, low, high, hysteresis, level] of RULES) {
    const productId = productOf.get(kind);
    if (!productId) continue;
    const inserted = await sql.query<{ id: string }>(
      `INSERT INTO iot_alarm_rule (tenant_id, rule_name, product_id, property_key, kind, low, high,
                                   hysteresis, level, status, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 1, $10) RETURNING id::text`,
      [tenantId, name, productId, key, condition, low, high, hysteresis, level, adminId ?? null],
    );
    ruleIds.set(name, inserted.rows[0]!.id);
  }
  for (const [rule, deviceNo, value, threshold, started, cleared, acknowledged] of ALARMS) {
    const deviceId = device.get(deviceNo);
    const ruleId = ruleIds.get(rule);
    if (!deviceId || !ruleId) continue;
    const [, , key, , , , , level] = RULES.find(([name]) => name === rule)!;
    await sql.query(
      `INSERT INTO iot_alarm_record (tenant_id, rule_id, device_id, property_key, level, value,
                                     threshold, started_at, cleared_at, state, acknowledged_by,
                                     acknowledged_at, ack_comment)
       SELECT $1, $2, $3, $4, $5, $6, $7, now() - $8::interval, now() - $9::text::interval,
              CASE WHEN $9::text IS NULL THEN 'open' ELSE 'cleared' END,
              CASE WHEN $10::boolean THEN 'operator' END,
              CASE WHEN $10::boolean THEN now() - $9::text::interval + interval '10 minutes' END,
              CASE WHEN $10::boolean THEN '已到现场处理' END`,
      [tenantId, ruleId, deviceId, key, level, value, threshold, started, cleared, acknowledged],
    );
  }
  await seedIrrigationPlan(sql, tenantId, device, adminId);
  await seedDemoRatingCurves(sql, tenantId, device, adminId);
}

/** Runs an entity's afterCreate hook as its add call would (scheduler triggers and all). */
async function created(ctx: EntityContext, entity: EntityDef, id: string): Promise<void> {
  await HOOKS.get(entity)?.afterCreate?.(ctx, id, {});
}

/**
 * Two valve groups over the demo's valve controllers, a rotation schedule running them one after
 * the other (switched off: an operator turns it on), a soil-moisture rule opening the first when
 * its field's 20 cm moisture drops below 18 %, a recipe for tomatoes at fruit set and a program
 * fertigating the first group with it (started by hand).
 */
async function seedIrrigationPlan(
  sql: Sql,
  tenantId: string,
  device: Map<string, string>,
  adminId: string | undefined,
): Promise<void> {
  const valves = ['IRR-VALVE-4-01', 'IRR-VALVE-4-02', 'IRR-VALVE-4-03'].flatMap((no) => {
    const id = device.get(no);
    return id ? [id] : [];
  });
  const soil = device.get('SOIL-4D-01');
  const machine = device.get('FERT-4CH-01');
  if (valves.length < 2 || !soil || !machine) return;
  const ctx: EntityContext = {
    sql,
    tenantId,
    lang: 'zh',
    auth: {
      userId: adminId ?? '0',
      username: 'admin',
      tenantId,
      tenantCode: 'demo',
      roles: [ROLE_ADMIN],
      activeRole: ROLE_ADMIN,
      sessionId: 'seed',
      zoneIds: null,
      projectIds: null,
    },
  };
  const member = (deviceId: string, channel: number) => formatValveMember({ deviceId, channel });
  const insert = async (entity: EntityDef, values: Record<string, unknown>) => {
    const columns = Object.keys(values);
    const { rows } = await sql.query<{ id: string }>(
      `INSERT INTO ${entity.table} (tenant_id, created_by, ${columns.join(', ')})
       VALUES ($1, $2, ${columns.map((_, i) => `$${i + 3}`).join(', ')}) RETURNING id::text`,
      [tenantId, adminId ?? null, ...Object.values(values)],
    );
    const id = rows[0]!.id;
    await created(ctx, entity, id);
    return id;
  };
  const north = await insert(valveGroupEntity, {
    group_name: '北片1号轮灌组',
    members: [member(valves[0]!, 1), member(valves[0]!, 2), member(valves[1]!, 1)],
    remark: '北干渠下游两条支渠',
    status: 1,
  });
  const south = await insert(valveGroupEntity, {
    group_name: '南片2号轮灌组',
    members: [member(valves[1]!, 2), member(valves[valves.length - 1]!, 3)],
    remark: '南片温室大棚',
    status: 1,
  });
  await insert(rotationScheduleEntity, {
    schedule_name: '春灌轮灌计划',
    steps: [`${north}:45`, `${south}:60`],
    start_time: '05:30',
    days_of_week: ['1', '3', '5'],
    remark: '每周一、三、五清晨轮灌,启用前请核对阀门状态',
    status: 0,
  });
  await insert(soilMoistureRuleEntity, {
    rule_name: '北片墒情自动灌溉',
    device_id: soil,
    group_id: north,
    depth: '20',
    start_below: 18,
    stop_above: 28,
    rain_skip_mm: 10,
    max_minutes: 120,
    remark: '24小时降雨超过10mm时跳过',
    status: 1,
  });
  const recipe = await insert(fertilizerRecipeEntity, {
    recipe_name: '番茄坐果期配方',
    crop: '番茄',
    stage: 'fruiting',
    target_ec: 2.2,
    target_ph: 6,
    ratio_a: 1,
    ratio_b: 1,
    ratio_c: 0.5,
    ratio_acid: 0.2,
    remark: '高钾配方',
    status: 1,
  });
  await insert(fertigationProgramEntity, {
    program_name: '北片番茄水肥程序',
    device_id: machine,
    group_no: 1,
    valve_group_id: north,
    recipe_id: recipe,
    water_before_minutes: 10,
    fertilizer_minutes: 40,
    water_after_minutes: 15,
    remark: '手动启动',
    status: 1,
  });
}
