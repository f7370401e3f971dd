import type { Sql } from '../db/database';
import { BILLING_LEDGER_SAMPLES } from './billing-ledger-samples';
import { BILLING_REPORT_SAMPLES } from './billing-report-samples';
import { BILLING_SESSION_SAMPLES } from './billing-session-samples';
import { BILLING_SETUP_SAMPLES } from './billing-setup-samples';
import { TRACE_SAMPLES } from './trace-samples';
import { JOB_SAMPLES } from './job-samples';
import { soilRuleKey } from '../modules/monitor/irrigation/irrigation-keys';

/**
 * Valid sample values of every declared entity, for the entity contract test. An entity in
 * ENTITIES without a sample here fails that test, so no new entity can skip it.
 */

/** Values unique to one call, in forms every declared pattern accepts. */
export interface Unique {
  /** Lower-case letters and digits, starting with a letter (codes, keys, names). */
  text: string;
  /** Digits only, at least 8 (region codes, mobiles). */
  digits: string;
}

/** What a sample may need from the tenant it is created in. */
export interface SampleContext {
  /** Some existing row of a table (a seeded one when there is one). */
  any(table: string): Promise<string>;
  /** A new row of a table, made through the API from its own entity's sample. */
  fresh(table: string): Promise<string>;
  /**
   * A device whose product is of a kind (a valve group takes irrigation valves, a soil rule a
   * soil station): an existing one, else one made of the tenant's seeded product of that kind.
   */
  deviceOfKind(kind: string): Promise<string>;
  /**
   * A new device of a kind on every call, made of the tenant's seeded product of that kind: for
   * rows whose only search field is their device (a station's rating curves, a plot's runoff
   * events), so a filter on it finds the one row made with it and no seeded or earlier one.
   */
  newDeviceOfKind(kind: string): Promise<string>;
  /** An image (device file) of a device of a kind: an existing one, else one stored for it. */
  imageOfKind(kind: string): Promise<string>;
}

export type Values = Record<string, unknown>;

export interface EntitySample {
  /**
   * A valid add body; for read-only entities, the row the test inserts straight into the table
   * (they have no add call).
   */
  create(unique: Unique, ctx: SampleContext): Values | Promise<Values>;
  /** The search field the query and export checks filter on. */
  search: string;
  /** One field to change in the update check, and its new value (absent for read-only ones). */
  update?(unique: Unique, ctx: SampleContext): Values | Promise<Values>;
  /**
   * How a read-only entity's row is written when a bare INSERT of its columns cannot be (a
   * ledger transaction needs its postings): answers the new row's id.
   */
  write?(sql: Sql, tenantId: string, values: Values): Promise<string>;
  /**
   * True while background work the last write started may still change the row's computed
   * fields (a soil rule's last decision is its evaluation's, due at once after every write): the
   * test reads the row again only once it is false, so two reads of an unchanged row agree.
   */
  busy?(sql: Sql, id: string): Promise<boolean>;
}

const START = '2024-01-01T00:00:00.000Z';
const END = '2035-12-31T16:00:00.000Z';

/** Keyed by entity name. */
export const ENTITY_SAMPLES: Record<string, EntitySample> = {
  SysTenant: {
    search: 'tenantCode',
    create: (u) => ({
      tenantCode: `t${u.text}`,
      tenantName: `Tenant ${u.text}`,
      domain: `${u.text}.example.com`,
      startTime: START,
      endTime: END,
      contact: 'Ops desk',
      email: `ops@${u.text}.example.com`,
      tel: '010-88886666',
      adminUsername: 'boss',
      adminPassword: 'secret-123',
    }),
    update: (u) => ({ tenantName: `Renamed ${u.text}` }),
  },
  SysOrg: {
    search: 'orgName',
    create: (u) => ({
      orgName: `Org ${u.text}`,
      orgType: 'department',
      orgDescription: 'Canal maintenance',
      orgSequence: 3,
    }),
    update: (u) => ({ orgName: `Org renamed ${u.text}` }),
  },
  SysRole: {
    search: 'roleCode',
    create: (u) => ({
      roleCode: `ROLE_${u.text.toUpperCase()}`,
      roleName: `Role ${u.text}`,
      roleDescription: 'Reads the gates',
    }),
    update: (u) => ({ roleName: `Role renamed ${u.text}` }),
  },
  SysUser: {
    search: 'username',
    create: async (u, ctx) => ({
      username: `user${u.text}`,
      nickname: `Nick ${u.text}`,
      password: 'secret-123',
      email: `${u.text}@example.com`,
      mobile: `+8615${u.digits.slice(-9).padStart(9, '0')}`,
      orgId: await ctx.any('sys_org'),
      roleIds: [await ctx.any('sys_role')],
      geographic: 'Hebei',
      address: '1 Canal Road',
      profile: 'Keeps the sluices',
    }),
    update: (u) => ({ nickname: `Nick renamed ${u.text}` }),
  },
  SysMenu: {
    search: 'menuCode',
    create: (u) => ({
      menuCode: `m${u.text}`,
      menuName: `Menu ${u.text}`,
      menuIcon: 'table',
      menuPath: `/test/${u.text}`,
      menuComponent: 'test/page',
      menuSequence: 7,
    }),
    update: (u) => ({ menuName: `Menu renamed ${u.text}` }),
  },
  SysMenuButton: {
    search: 'buttonCode',
    create: async (u, ctx) => ({
      menuId: await ctx.any('sys_menu'),
      buttonCode: `b${u.text}:run`,
      buttonName: `Button ${u.text}`,
    }),
    update: (u) => ({ buttonName: `Button renamed ${u.text}` }),
  },
  SysPost: {
    search: 'postCode',
    create: (u) => ({ postCode: `p${u.text}`, postName: `Post ${u.text}`, postSequence: 2 }),
    update: (u) => ({ postName: `Post renamed ${u.text}` }),
  },
  SysUserPost: {
    search: 'postId',
    create: async (_u, ctx) => ({
      userId: await ctx.any('sys_user'),
      postId: await ctx.fresh('sys_post'),
    }),
    update: async (_u, ctx) => ({ userId: await ctx.fresh('sys_user') }),
  },
  SysUrl: {
    search: 'url',
    create: (u) => ({ url: `/api/test/${u.text}`, method: 'POST', description: `Url ${u.text}` }),
    update: (u) => ({ description: `Url renamed ${u.text}` }),
  },
  DataPermission: {
    search: 'roleCode',
    create: (u) => ({
      roleCode: `ROLE_${u.text.toUpperCase()}`,
      menuCode: 'sysuser',
      dataFields: 'username,nickname',
      description: `Rule ${u.text}`,
    }),
    update: (u) => ({ description: `Rule renamed ${u.text}` }),
  },
  SysDict: {
    search: 'dictType',
    create: (u) => ({
      dictType: `t_${u.text}`,
      dictName: `Dict ${u.text}`,
      dictValue: `v${u.text}`,
      dictSequence: 4,
    }),
    update: (u) => ({ dictName: `Dict renamed ${u.text}` }),
  },
  SysRegion: {
    search: 'regionCode',
    create: (u) => ({
      regionName: `Region ${u.text}`,
      regionCode: `99${u.digits}`,
      regionType: 'county',
      regionSequence: 1,
    }),
    update: (u) => ({ regionName: `Region renamed ${u.text}` }),
  },
  SysParam: {
    search: 'paramKey',
    create: (u) => ({
      paramName: `Param ${u.text}`,
      paramKey: `test.${u.text}`,
      paramValue: 'forty-two',
    }),
    update: (u) => ({ paramValue: `changed ${u.text}` }),
  },
  AppClient: {
    search: 'clientId',
    create: (u) => ({
      clientId: `c${u.text}`,
      authorizedGrantTypes: ['client_credentials', 'refresh_token'],
      scope: ['api'],
      accessTokenValidity: 600,
      refreshTokenValidity: 3600,
      webServerRedirectUri: `https://${u.text}.example.com/callback`,
      resourceIds: 'gates',
      authorities: 'read',
      additionalInformation: 'Telemetry bridge',
      autoapprove: true,
    }),
    update: () => ({ accessTokenValidity: 1200 }),
  },
  SysZone: {
    search: 'zoneCode',
    create: (u) => ({
      zoneName: `Zone ${u.text}`,
      zoneCode: `z${u.text}`,
      zoneType: 'canal_section',
      regionCode: '110101',
      zoneSequence: 5,
      zoneDescription: 'North bank',
    }),
    update: (u) => ({ zoneName: `Zone renamed ${u.text}` }),
  },
  Notification: {
    search: 'title',
    create: (u) => ({
      title: `Notice ${u.text}`,
      content: '<p>Gates close at six</p>',
      type: 'notice',
      priority: 'high',
      publishScope: 'all',
      startTime: START,
      endTime: END,
    }),
    update: (u) => ({ title: `Notice renamed ${u.text}` }),
  },
  OperationLog: {
    search: 'username',
    create: (u) => ({
      username: `user${u.text}`,
      action: 'Update user',
      method: 'PUT',
      url: '/api/admin/sysuser/updateSysUser',
      target: `Target ${u.text}`,
      ip: '10.1.2.3',
      result: 'success',
      status: 200,
      message: 'done',
      durationMs: 12,
      createdAt: '2025-05-05T05:05:05.000Z',
    }),
  },
  LoginLog: {
    search: 'username',
    create: (u) => ({
      username: `user${u.text}`,
      grantType: 'password',
      ip: '10.1.2.4',
      userAgent: 'Firefox',
      result: 'failure',
      message: 'Wrong password',
      createdAt: '2025-05-05T05:05:05.000Z',
    }),
  },
  IotProject: {
    search: 'projectNo',
    create: async (u, ctx) => ({
      projectNo: `P-${u.text}`,
      projectName: `Project ${u.text}`,
      zoneId: await ctx.any('sys_zone'),
      regionCode: '370181',
      description: 'High-efficiency water-saving irrigation, phase 2',
    }),
    update: (u) => ({ projectName: `Project renamed ${u.text}` }),
  },
  IotProduct: {
    search: 'serialNo',
    create: (u) => ({
      serialNo: `PR-${u.text}`,
      productName: `Valve controller ${u.text}`,
      deviceKind: 'irrigation_valve',
      protocol: 'modbus_rtu',
      description: 'Four-channel solar valve controller',
    }),
    update: (u) => ({ productName: `Product renamed ${u.text}` }),
  },
  IotFactor: {
    search: 'factorCode',
    create: (u) => ({
      factorCode: `f${u.text}`,
      factorName: `Factor ${u.text}`,
      unit: 'm³/h',
      precision: 3,
      minValue: -12.5,
      maxValue: 3600.125,
      category: 'hydrology',
    }),
    update: () => ({ maxValue: 4200.75 }),
  },
  SensorTemplate: {
    search: 'templateCode',
    create: async (u, ctx) => ({
      templateCode: `s${u.text}`,
      templateName: `Soil probe ${u.text}`,
      factorId: await ctx.any('iot_factor'),
      unit: '%',
      minValue: 0,
      maxValue: 100,
      manufacturer: 'Hydro Sensors Ltd',
      description: 'FDR probe',
    }),
    update: (u) => ({ templateName: `Template renamed ${u.text}` }),
  },
  ControllerTemplate: {
    search: 'templateCode',
    create: (u) => ({
      templateCode: `c${u.text}`,
      templateName: `Valve ${u.text}`,
      controlKind: 'valve',
      commandKey: 'openValve',
      channels: 4,
      unit: 'min',
      minValue: 1,
      maxValue: 1440,
      description: 'Opens one channel for a while',
    }),
    update: (u) => ({ templateName: `Template renamed ${u.text}` }),
  },
  IotDevice: {
    search: 'deviceNo',
    create: async (u, ctx) => ({
      deviceNo: `D-${u.text}`,
      deviceName: `Valve ${u.text}`,
      productId: await ctx.any('iot_product'),
      projectId: await ctx.any('iot_project'),
      zoneId: await ctx.any('sys_zone'),
      lat: 36.651234,
      lng: 117.012345,
      installAddress: 'North canal, km 3.2',
      installDate: '2025-03-01T08:00:00.000Z',
      installer: 'Li Wei',
      remark: 'Solar powered',
      status: 0,
    }),
    update: () => ({ status: 3 }),
  },
  SensorInstance: {
    search: 'propertyKey',
    create: async (u, ctx) => ({
      instanceName: `Probe ${u.text}`,
      templateId: await ctx.any('iot_sensor_template'),
      deviceId: await ctx.any('iot_device'),
      propertyKey: `p${u.text}`,
      installDepthCm: 20,
      remark: 'Maize plot',
    }),
    update: (u) => ({ instanceName: `Probe renamed ${u.text}` }),
  },
  ControllerInstance: {
    search: 'instanceName',
    create: async (u, ctx) => ({
      instanceName: `Valve ${u.text}`,
      templateId: await ctx.fresh('iot_controller_template'),
      deviceId: await ctx.any('iot_device'),
      channel: 2,
      propertyKey: 'valve2',
      remark: 'East lateral',
    }),
    update: (u) => ({ instanceName: `Valve renamed ${u.text}` }),
  },
  IotDeviceFile: {
    search: 'originalName',
    create: async (u, ctx) => ({
      deviceId: await ctx.any('iot_device'),
      fileKind: 'file',
      originalName: `manual-${u.text}.pdf`,
      contentType: 'application/pdf',
      sizeKb: 12,
      storageKey: `k${u.text}`,
      createdAt: '2025-05-05T05:05:05.000Z',
    }),
  },
  Command: {
    search: 'username',
    create: async (u, ctx) => ({
      username: `user${u.text}`,
      deviceId: await ctx.any('iot_device'),
      name: 'openValve',
      params: '{"channel":1}',
      status: 'succeeded',
      timeoutSeconds: 30,
      expiresAt: '2025-05-05T05:15:05.000Z',
      createdAt: '2025-05-05T05:05:05.000Z',
      sentAt: '2025-05-05T05:05:05.000Z',
      ackedAt: '2025-05-05T05:05:06.000Z',
      latencyMs: 850,
      result: 'done',
    }),
  },
  AlarmRule: {
    search: 'ruleName',
    create: async (u, ctx) => ({
      ruleName: `Rule ${u.text}`,
      productId: await ctx.fresh('iot_product'),
      propertyKey: 'waterLevel',
      kind: 'above',
      high: 5.5,
      hysteresis: 0.2,
      level: 'red',
    }),
    update: (u) => ({ ruleName: `Rule renamed ${u.text}` }),
  },
  AlarmRecord: {
    search: 'propertyKey',
    create: async (u, ctx) => ({
      ruleId: await ctx.fresh('iot_alarm_rule'),
      deviceId: await ctx.any('iot_device'),
      propertyKey: `k${u.text}`,
      level: 'red',
      value: 6.1,
      threshold: 5.5,
      startedAt: '2025-05-05T05:05:05.000Z',
      clearedAt: '2025-05-05T06:05:05.000Z',
      state: 'cleared',
      acknowledgedBy: 'admin',
      acknowledgedAt: '2025-05-05T05:10:05.000Z',
      ackComment: 'Gate opened',
    }),
  },
  FertilizerRecipe: {
    search: 'recipeName',
    create: (u) => ({
      recipeName: `Recipe ${u.text}`,
      crop: 'Tomato',
      stage: 'fruiting',
      targetEc: 2.2,
      targetPh: 6.2,
      ratioA: 1,
      ratioB: 1,
      ratioC: 0.5,
      ratioAcid: 0.1,
      remark: 'Greenhouse 3',
    }),
    update: (u) => ({ recipeName: `Recipe renamed ${u.text}` }),
  },
  FertigationProgram: {
    search: 'programName',
    create: async (u, ctx) => ({
      programName: `Program ${u.text}`,
      deviceId: await ctx.deviceOfKind('water_fertilizer'),
      groupNo: 3,
      valveGroupId: await ctx.any('monitor_valve_group'),
      recipeId: await ctx.fresh('monitor_fertilizer_recipe'),
      waterBeforeMinutes: 10,
      fertilizerMinutes: 30,
      waterAfterMinutes: 15,
      startTime: '06:30',
      daysOfWeek: ['1', '3', '5'],
      remark: 'Before the heat',
    }),
    update: (u) => ({ programName: `Program renamed ${u.text}` }),
  },
  ValveGroup: {
    search: 'groupName',
    create: async (u, ctx) => ({
      groupName: `Group ${u.text}`,
      zoneId: await ctx.any('sys_zone'),
      members: [`${await ctx.deviceOfKind('irrigation_valve')}:1`],
      remark: 'North canal laterals',
    }),
    update: (u) => ({ groupName: `Group renamed ${u.text}` }),
  },
  RotationSchedule: {
    search: 'scheduleName',
    create: async (u, ctx) => ({
      scheduleName: `Rotation ${u.text}`,
      steps: [`${await ctx.any('monitor_valve_group')}:30`],
      startTime: '05:30',
      daysOfWeek: ['2', '4', '6'],
      remark: 'Spring rotation',
    }),
    update: (u) => ({ scheduleName: `Rotation renamed ${u.text}` }),
  },
  SoilMoistureRule: {
    search: 'ruleName',
    create: async (u, ctx) => ({
      ruleName: `Soil rule ${u.text}`,
      deviceId: await ctx.deviceOfKind('soil_moisture'),
      groupId: await ctx.any('monitor_valve_group'),
      depth: '40',
      startBelow: 18.5,
      stopAbove: 28,
      rainSkipMm: 10,
      maxMinutes: 90,
      remark: 'Wheat, tillering',
    }),
    update: () => ({ stopAbove: 30.5 }),
    busy: async (sql, id) => {
      const { rows } = await sql.query<{ busy: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM scheduler_trigger WHERE key = $1
                          AND (state = 'running' OR (state = 'waiting' AND due_at <= now())))
             OR EXISTS (SELECT 1 FROM scheduler_run WHERE key = $1
                          AND state IN ('running', 'retrying')) AS busy`,
        [soilRuleKey(id)],
      );
      return rows[0]!.busy;
    },
  },
  InsectSpecies: {
    search: 'nameZh',
    create: (u) => ({
      nameZh: `棉铃虫${u.text}`,
      nameLatin: 'Helicoverpa armigera',
      nameEn: 'Cotton bollworm',
      insectOrder: 'lepidoptera',
      hostCrops: '棉花、玉米',
      hintsZh: '前翅有环状纹和肾状纹',
      hintsTw: '前翅有環狀紋和腎狀紋',
      hintsEn: 'Ring and kidney marks on the forewing',
      adviceZh: '性诱剂诱杀成虫',
      adviceTw: '性誘劑誘殺成蟲',
      adviceEn: 'Trap moths with pheromones',
    }),
    update: (u) => ({ nameZh: `黏虫${u.text}` }),
  },
  InsectPhotoLabel: {
    search: 'speciesId',
    create: async (_u, ctx) => ({
      fileId: await ctx.imageOfKind('insect_trap'),
      // A species of its own each time: one count per species and photo.
      speciesId: await ctx.fresh('monitor_insect_species'),
      insectCount: 12,
    }),
    update: () => ({ insectCount: 15 }),
  },
  Camera: {
    search: 'cameraName',
    create: async (u, ctx) => ({
      cameraName: `Camera ${u.text}`,
      zoneId: await ctx.any('sys_zone'),
      deviceId: await ctx.deviceOfKind('camera'),
      streamType: 'hls',
      streamUrl: `https://nvr.example.net/live/${u.text}/index.m3u8`,
      snapshotUrl: `https://nvr.example.net/snap/${u.text}.jpg`,
      lng: 117.012345,
      lat: 36.612345,
      remark: 'Head gate',
    }),
    update: (u) => ({ cameraName: `Camera renamed ${u.text}` }),
  },
  LedProgram: {
    search: 'programName',
    create: async (u) => ({
      programNo: `P-${u.text}`.slice(0, 32),
      programName: `Notice ${u.text}`,
      width: 192,
      height: 96,
      remark: 'Canal level',
    }),
    update: (u) => ({ programName: `Notice renamed ${u.text}` }),
  },
  RatingCurve: {
    // The station is the only search field: a station of its own, so no seeded curve (nor one
    // of another check) is found with it, and no other curve's period overlaps this one.
    search: 'deviceId',
    create: async (u, ctx) => ({
      deviceId: await ctx.newDeviceOfKind('bayonet_station'),
      a: 5.4321,
      h0: 0.325,
      b: 1.625,
      validFrom: '2023-04-01T00:00:00.000Z',
      validTo: '2024-04-01T00:00:00.000Z',
      remark: `Section surveyed ${u.text}`,
    }),
    update: () => ({ a: 6.125 }),
  },
  RunoffEvent: {
    // Written by the server: a completed event (detection replaces only ongoing ones) of a plot
    // of its own, the only event a filter on that plot finds.
    search: 'deviceId',
    create: async (_u, ctx) => ({
      deviceId: await ctx.newDeviceOfKind('sediment_station'),
      startAt: '2025-07-12T06:20:00.000Z',
      endAt: '2025-07-12T09:45:00.000Z',
      ongoing: false,
      rainfall: 38.5,
      runoffVolume: 1.2875,
      runoffDepth: 12.88,
      runoffCoefficient: 0.334,
      sedimentYield: 4.125,
      peakFlow: 2.75,
      plotArea: 100,
    }),
  },
  ...BILLING_SETUP_SAMPLES,
  ...BILLING_LEDGER_SAMPLES,
  ...BILLING_REPORT_SAMPLES,
  ...BILLING_SESSION_SAMPLES,
  ...TRACE_SAMPLES,
  ...JOB_SAMPLES,
};
