import type { Sql } from '../database';
import { checkDataFields } from '../../entity/data-field.service';

/** A demo tenant's language for rows that have one name (posts, parameters, roles). */
export type DemoLanguage = 'zh' | 'en';

interface PostSeed {
  code: string;
  name: Record<DemoLanguage, string>;
  parent?: string;
}

/** The posts of an irrigation district's management station, the station chief on top. */
const POSTS: PostSeed[] = [
  { code: 'STATION_CHIEF', name: { zh: '站长', en: 'Station chief' } },
  { code: 'GATE_KEEPER', name: { zh: '闸门管理员', en: 'Gate keeper' }, parent: 'STATION_CHIEF' },
  {
    code: 'PUMP_OPERATOR',
    name: { zh: '泵站运行工', en: 'Pump operator' },
    parent: 'STATION_CHIEF',
  },
  { code: 'CANAL_PATROL', name: { zh: '巡渠员', en: 'Canal patroller' }, parent: 'STATION_CHIEF' },
  {
    code: 'TOLL_COLLECTOR',
    name: { zh: '收费员', en: 'Water fee collector' },
    parent: 'STATION_CHIEF',
  },
  { code: 'IT_ADMIN', name: { zh: '信息化管理员', en: 'IT administrator' } },
];

interface ParamSeed {
  key: string;
  name: Record<DemoLanguage, string>;
  value: string;
  /** Read by the server: seeded for the demo only, at the value it assumes anyway. */
  demoOnly?: boolean;
}

/**
 * Parameters a district sets. `timeZone` and `iot.retentionDays` are read by the telemetry
 * services (telemetry-settings.ts) and seeded at their defaults, so nothing behaves differently;
 * the others document the district's rules for its staff.
 */
const PARAMS: ParamSeed[] = [
  {
    key: 'timeZone',
    name: { zh: '时区', en: 'Time zone' },
    value: 'Asia/Shanghai',
    demoOnly: true,
  },
  {
    key: 'iot.retentionDays',
    name: { zh: '监测数据保留天数', en: 'Telemetry kept (days)' },
    value: '365',
    demoOnly: true,
  },
  {
    key: 'irrigation.springSeason',
    name: { zh: '春灌时段', en: 'Spring irrigation season' },
    value: '03-01~05-31',
  },
  {
    key: 'irrigation.quotaPerMu',
    name: { zh: '亩均年用水定额(m³)', en: 'Yearly water quota per mu (m³)' },
    value: '350',
  },
  {
    key: 'billing.basePrice',
    name: { zh: '农业用水基本水价(元/m³)', en: 'Base price of farm water (CNY/m³)' },
    value: '0.12',
  },
  {
    key: 'billing.lowBalance',
    name: { zh: 'IC卡余额提醒线(元)', en: 'Prepaid card low-balance alert (CNY)' },
    value: '20',
  },
  {
    key: 'gate.maxStep',
    name: { zh: '闸门单次调节最大开度(m)', en: 'Largest gate move at once (m)' },
    value: '0.5',
  },
];

/** Posts (a tree under the station chief) and parameters, in the tenant's language. */
export async function seedDemoPostsAndParams(
  sql: Sql,
  tenantId: string,
  lang: DemoLanguage,
  demo: boolean,
): Promise<void> {
  const ids = new Map<string, string>();
  for (const [index, post] of POSTS.entries()) {
    const { rows } = await sql.query<{ id: string }>(
      `INSERT INTO sys_post (tenant_id, post_code, post_name, post_sequence, post_parent)
       VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [tenantId, post.code, post.name[lang], index, post.parent ? ids.get(post.parent) : null],
    );
    ids.set(post.code, rows[0]!.id);
  }
  const params = PARAMS.filter((param) => demo || !param.demoOnly);
  await sql.query(
    `INSERT INTO sys_param (tenant_id, param_name, param_key, param_value)
     SELECT $1, unnest($2::text[]), unnest($3::text[]), unnest($4::text[])`,
    [
      tenantId,
      params.map((param) => param.name[lang]),
      params.map((param) => param.key),
      params.map((param) => param.value),
    ],
  );
}

/** The menus a canal patroller opens: the workbench and the device list. */
const INSPECTOR_MENUS = ['home', 'workbench', 'iot', 'iotdevice'];

/**
 * A data permission as districts use them: canal patrollers (a role of their own) see where a
 * device is and how it is, not its coordinates, installer or remarks. The role gets its menus;
 * its URL permissions are the administrator's to grant (Roles → Authorise).
 */
export async function seedDemoDataPermission(sql: Sql, tenantId: string): Promise<void> {
  const role = await sql.query<{ id: string }>(
    `INSERT INTO sys_role (tenant_id, role_code, role_name, role_description)
     VALUES ($1, 'ROLE_INSPECTOR', '巡渠员', '巡查渠道与设备:查看设备列表,不能控制设备')
     RETURNING id`,
    [tenantId],
  );
  await sql.query(
    `INSERT INTO sys_role_menu (tenant_id, role_id, menu_id)
     SELECT $1, $2, id FROM sys_menu WHERE tenant_id = $1 AND menu_code = ANY($3::text[])`,
    [tenantId, role.rows[0]!.id, INSPECTOR_MENUS],
  );
  // Checked like a rule an administrator saves: a field the device list lacks fails the seed.
  const fields = checkDataFields(
    'iotdevice',
    'deviceNo,deviceName,productId,zoneId,installAddress,status,online,lastSeen,alarmLevel',
  );
  await sql.query(
    `INSERT INTO sys_data_permission (tenant_id, role_code, menu_code, data_fields, description)
     VALUES ($1, 'ROLE_INSPECTOR', 'iotdevice', $2, $3)`,
    [
      tenantId,
      fields,
      '巡渠员只看设备编号、名称、产品、区域、安装位置与状态;不看坐标、安装人员与备注',
    ],
  );
}
