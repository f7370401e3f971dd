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
      type: 'notification',
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
};
