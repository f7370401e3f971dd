import {
  AREA_DEVICE_CALLS,
  AREAS,
  areaScreenPath,
  areaSegmentPath,
  alarmRecordEntity,
  alarmRuleEntity,
  entityCalls,
  iotCommandEntity,
  iotDeviceEntity,
  iotProductEntity,
  iotProjectEntity,
  type AreaScreen,
  type MenuNode,
  ROLE_ADMIN,
  ROLE_CASHIER,
  ROLE_OPERATOR,
  sysOrgEntity,
  sysRoleEntity,
  sysTenantEntity,
  sysUrlEntity,
  sysUserEntity,
  TELEMETRY_CALLS,
  THING_MODEL_CALLS,
} from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, type CallOptions } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { UrlGrantService } from '../authority/url-grant.service';
import { syncDefaultMenus } from './default-menu-sync';
import { DEFAULT_MENUS, DEFAULT_ROLE_GRANTS, DEFAULT_ROLES, EXTRA_BUTTONS } from './default-menus';

/*
 * The grants default roles start with (DEFAULT_ROLE_GRANTS): declared against the server's real
 * routes and menus, held by the demo's operator and by a new tenant's, and given only once.
 */

const OPERATOR_URLS = [...DEFAULT_ROLE_GRANTS[ROLE_OPERATOR]!.urls].sort();
const OPERATOR_BUTTONS = [...DEFAULT_ROLE_GRANTS[ROLE_OPERATOR]!.buttons].sort();
/** The IoT screens an operator sees, in the sidebar's order. */
const OPERATOR_IOT_PATHS = [iotDeviceEntity.route, iotCommandEntity.route, alarmRecordEntity.route];
/** The operator's menu groups: home, the IoT screens, every area, the cross-area screens. */
const OPERATOR_GROUPS = [
  'home',
  'iot',
  // A grouped area's group; an area without one lists its operator pages at the top level.
  ...AREAS.flatMap((area) =>
    area.group !== undefined
      ? [area.code]
      : (area.pages ?? []).filter((page) => page.operator).map((page) => page.segment),
  ),
  'deviceDataReport',
  'warningInformation',
];
/** The screens of each area an operator sees (AreaDef.operatorScreens), in menu order. */
const OPERATOR_AREA_PATHS = Object.fromEntries(
  AREAS.map((area) => [
    area.code,
    area.group === undefined
      ? []
      : [
          ...(Object.keys(area.screens) as AreaScreen[])
            .filter((screen) => area.operatorScreens.includes(screen))
            .map((screen) => areaScreenPath(area, screen)),
          ...(area.pages ?? [])
            .filter((page) => page.operator && !page.hidden)
            .map((page) => areaSegmentPath(area, page.segment)),
        ],
  ]),
);

describe.each(BACKENDS)('default role grants on $backend', ({ backend, available }) => {
  let server: TestServer;
  const tokens = { platform: '', admin: '', operator: '' };
  const test = it.skipIf(!available);

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    const [platform, admin, operator] = await Promise.all([
      signIn(server, 'platform', 'admin', 'admin123'),
      signIn(server, 'demo', 'admin', 'admin123'),
      signIn(server, 'demo', 'operator', 'operator123'),
    ]);
    tokens.platform = platform.access_token;
    tokens.admin = admin.access_token;
    tokens.operator = operator.access_token;
  });
  afterAll(async () => server?.close());

  const as = (token: string, method: string, url: string, options: CallOptions = {}) =>
    call(server, method, url, { token, ...options });

  /** Every route that needs a URL grant, as the server listed it (a tenant's generated URLs). */
  async function routeCatalogue() {
    const { rows } = await server.db.system((sql) =>
      sql.query<{ url: string; method: string; description: string }>(
        `SELECT u.url, u.method, u.description FROM sys_url u JOIN tenant t ON t.id = u.tenant_id
          WHERE t.tenant_code = 'demo' AND u.generated ORDER BY u.url`,
      ),
    );
    return rows;
  }

  /** What a start does: the seed's menu sync, then the routes listed in every tenant. */
  async function restart() {
    await server.db.system((sql) => syncDefaultMenus(sql));
    const restarted = new UrlGrantService(server.db);
    for (const route of await routeCatalogue()) restarted.register(route);
    await server.db.system((sql) => restarted.syncCatalogue(sql));
  }

  /** The URLs a role holds in a tenant, read from the database. */
  async function urlsOf(tenantCode: string, roleCode: string): Promise<string[]> {
    const { rows } = await server.db.system((sql) =>
      sql.query<{ url: string }>(
        `SELECT u.url FROM sys_role_url ru
           JOIN sys_role r ON r.id = ru.role_id JOIN sys_url u ON u.id = ru.url_id
           JOIN tenant t ON t.id = r.tenant_id
          WHERE t.tenant_code = $1 AND r.role_code = $2 ORDER BY u.url`,
        [tenantCode, roleCode],
      ),
    );
    return rows.map((row) => row.url);
  }

  /** The IoT screens and the buttons the signed-in user's active role is given. */
  async function authorityOf(token: string) {
    const answer = await as(token, 'POST', '/api/account/sysuserdetail/queryCurrentAuthority');
    expect(answer.status).toBe(200);
    const menus = answer.body.data.menu as MenuNode[];
    const iot = menus.find((node) => node.menuCode === 'iot');
    const childPaths = (code: string) =>
      (menus.find((node) => node.menuCode === code)?.children ?? []).map((node) => node.menuPath);
    return {
      groups: menus.map((node) => node.menuCode),
      iotPaths: (iot?.children ?? []).map((node) => node.menuPath),
      areaPaths: Object.fromEntries(AREAS.map((area) => [area.code, childPaths(area.code)])),
      buttons: [...(answer.body.data.menuButton as string[])].sort(),
    };
  }

  /** A demo device whose product has a command without parameters, with that command. */
  async function commandableDevice(token: string) {
    const devices = await as(token, 'GET', entityCalls(iotDeviceEntity).query, {
      query: { pageSize: '100' },
    });
    for (const device of devices.body.data.list as Array<{ id: string }>) {
      const detail = await as(token, 'GET', '/api/iot/device/queryDeviceDetail', {
        query: { id: device.id },
      });
      expect(detail.status).toBe(200);
      const commands = detail.body.data.thingModel.commands as Array<{
        key: string;
        params: unknown[];
      }>;
      const plain = commands.find((command) => command.params.length === 0);
      if (plain) return { deviceId: String(device.id), name: plain.key };
    }
    throw new Error('no demo device has a command without parameters');
  }

  test('the declaration names real granted routes and buttons of the role’s own menus', async () => {
    const catalogue = new Set((await routeCatalogue()).map((route) => route.url));
    expect(catalogue.size).toBeGreaterThan(100);
    // A menu's code is its key in every tenant (sys_menu is unique by tenant and code).
    const codes = DEFAULT_MENUS.map((menu) => menu.menuCode);
    expect(codes.filter((code, index) => codes.indexOf(code) !== index)).toEqual([]);
    const roleCodes = DEFAULT_ROLES.map((role) => role.roleCode);
    for (const [roleCode, grants] of Object.entries(DEFAULT_ROLE_GRANTS)) {
      expect(roleCodes, 'a default role').toContain(roleCode);
      expect(roleCode, 'ROLE_ADMIN holds everything anyway').not.toBe(ROLE_ADMIN);
      // A renamed or removed route fails here instead of granting nothing.
      expect(
        grants.urls.filter((url) => !catalogue.has(url)),
        `${roleCode}: URLs no route serves`,
      ).toEqual([]);
      expect(new Set(grants.urls).size, `${roleCode}: URLs listed twice`).toBe(grants.urls.length);
      const menus = DEFAULT_MENUS.filter((menu) => menu.roles.includes(roleCode));
      const buttons = new Set(
        menus.flatMap((menu) =>
          [...(menu.buttons ?? []), ...(EXTRA_BUTTONS[menu.menuCode] ?? [])].map(
            (button) => button.buttonCode,
          ),
        ),
      );
      expect(
        grants.buttons.filter((code) => !buttons.has(code)),
        `${roleCode}: buttons not on its menus`,
      ).toEqual([]);
    }
    // The operator only reads and exports on its screens: no add, edit, delete or status button.
    expect(OPERATOR_BUTTONS.every((code) => code.endsWith(':export'))).toBe(true);
  });

  test('the demo operator holds exactly the default URLs, the IoT screens and their exports', async () => {
    expect(await urlsOf('demo', ROLE_OPERATOR)).toEqual(OPERATOR_URLS);
    const seen = await authorityOf(tokens.operator);
    expect(seen.groups).toEqual(OPERATOR_GROUPS);
    expect(seen.iotPaths).toEqual(OPERATOR_IOT_PATHS);
    expect(seen.areaPaths).toEqual(OPERATOR_AREA_PATHS);
    expect(seen.areaPaths.soilMoisture).toEqual([
      '/soilMoisture/soilMoistureMonitor',
      '/soilMoisture/soilMoistureDevice',
      '/soilMoisture/soilMoistureDataReport',
      '/soilMoisture/soilMoistureWarnInfor',
      '/soilMoisture/soilMoistureOperationRecord',
    ]);
    expect(seen.buttons).toEqual(OPERATOR_BUTTONS);
  });

  test('the demo operator watches devices, sends commands and handles alarms', async () => {
    const token = tokens.operator;
    const devices = await as(token, 'GET', entityCalls(iotDeviceEntity).query);
    expect(devices.status).toBe(200);
    expect(devices.body.data.total).toBeGreaterThan(0);
    // The look-ups of the device screens.
    for (const url of [
      entityCalls(iotProjectEntity).query,
      entityCalls(iotProductEntity).query,
      '/api/admin/syszone/queryZoneTree',
      entityCalls(alarmRuleEntity).query,
    ])
      expect((await as(token, 'GET', url)).status, url).toBe(200);
    const exported = await as(token, 'POST', entityCalls(iotDeviceEntity).exportCsv);
    expect(exported.status).toBe(200);

    const { deviceId, name } = await commandableDevice(token);
    const latest = await as(token, 'GET', TELEMETRY_CALLS.latest, { query: { deviceId } });
    expect(latest.status).toBe(200);
    expect(Array.isArray(latest.body.data)).toBe(true);
    const history = await as(token, 'GET', TELEMETRY_CALLS.history, {
      query: {
        deviceId,
        start: new Date(Date.now() - 86_400_000).toISOString(),
        end: new Date().toISOString(),
      },
    });
    expect(history.status).toBe(200);
    const control = await as(token, 'GET', '/api/iot/command/queryDeviceControl', {
      query: { deviceId },
    });
    expect(control.status).toBe(200);

    // The device is offline in the test: the command waits for it.
    const sent = await as(token, 'POST', '/api/iot/command/sendCommand', {
      body: { deviceId, name, params: {} },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.data).toMatchObject({ name, username: 'operator' });
    expect(['pending', 'sent']).toContain(sent.body.data.status);
    const records = await as(token, 'GET', entityCalls(iotCommandEntity).query, {
      query: { deviceId },
    });
    expect(records.status).toBe(200);
    expect(records.body.data.list.map((row: { id: string }) => row.id)).toContain(
      sent.body.data.id,
    );
    if (sent.body.data.status === 'pending') {
      const cancelled = await as(token, 'POST', '/api/iot/command/cancelCommand', {
        body: { id: sent.body.data.id },
      });
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.data.status).toBe('cancelled');
    }

    // An open alarm of the device: the operator reads and acknowledges it.
    const opened = await server.db.system((sql) =>
      sql.query<{ id: string }>(
        `INSERT INTO iot_alarm_record (tenant_id, device_id, property_key, level, value, threshold, started_at, state)
         SELECT tenant_id, id, 'waterLevel', 'orange', 5.6, 5, now(), 'open' FROM iot_device WHERE id = $1
         RETURNING id::text`,
        [deviceId],
      ),
    );
    const alarmId = opened.rows[0]!.id;
    const alarms = await as(token, 'GET', entityCalls(alarmRecordEntity).query, {
      query: { deviceId },
    });
    expect(alarms.status).toBe(200);
    expect(alarms.body.data.list.map((row: { id: string }) => row.id)).toContain(alarmId);
    const acknowledged = await as(token, 'POST', '/api/iot/alarm/acknowledgeAlarm', {
      body: { id: alarmId, comment: 'Checked on site' },
    });
    expect(acknowledged.status).toBe(200);
  });

  test('the demo operator cannot change devices, products or rules, nor touch administration', async () => {
    const token = tokens.operator;
    const [device] = (
      await as(tokens.admin, 'GET', entityCalls(iotDeviceEntity).query, {
        query: { pageSize: '1' },
      })
    ).body.data.list as Array<{ id: string; deviceNo: string }>;
    const [product] = (await as(tokens.admin, 'GET', entityCalls(iotProductEntity).query)).body.data
      .list as Array<{ id: string; serialNo: string }>;
    const refused: Array<[string, string, CallOptions]> = [
      [
        'POST',
        entityCalls(iotDeviceEntity).add,
        { body: { deviceNo: 'OP-1', deviceName: 'Operator device', productId: product!.id } },
      ],
      ['PUT', entityCalls(iotDeviceEntity).update, { body: { id: device!.id, deviceName: 'x' } }],
      ['POST', entityCalls(iotDeviceEntity).delete, { query: { id: device!.id } }],
      ['POST', '/api/iot/device/resetDeviceSecret', { body: { id: device!.id } }],
      ['PUT', entityCalls(iotProductEntity).update, { body: { id: product!.id, remark: 'x' } }],
      ['POST', entityCalls(iotProductEntity).delete, { query: { id: product!.id } }],
      ['PUT', THING_MODEL_CALLS.update, { body: { serialNo: product!.serialNo } }],
      ['POST', entityCalls(alarmRuleEntity).add, { body: {} }],
      ['GET', entityCalls(sysUserEntity).query, {}],
      ['POST', entityCalls(sysRoleEntity).add, { body: { roleCode: 'ROLE_X', roleName: 'X' } }],
      ['GET', entityCalls(sysUrlEntity).query, {}],
      ['POST', '/api/admin/sysurl/authorizeUrlToRole', { body: { roleId: '1', urlIds: [] } }],
      ['GET', entityCalls(sysTenantEntity).query, {}],
    ];
    for (const [method, url, options] of refused) {
      const answer = await as(token, method, url, options);
      expect.soft(answer.status, `${method} ${url}`).toBe(403);
    }
    const still = await as(tokens.admin, 'GET', entityCalls(iotDeviceEntity).query, {
      query: { deviceNo: device!.deviceNo },
    });
    expect(still.body.data.total).toBe(1);
  });

  test('a new tenant’s operator starts with the same grants; what its admin revokes stays revoked', async () => {
    const tenantCode = `op${Date.now().toString(36)}`;
    const created = await as(tokens.platform, 'POST', entityCalls(sysTenantEntity).add, {
      body: {
        tenantCode,
        tenantName: `Operators ${tenantCode}`,
        adminUsername: 'boss',
        adminPassword: 'secret-123',
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(await urlsOf(tenantCode, ROLE_OPERATOR)).toEqual(OPERATOR_URLS);
    expect(await urlsOf(tenantCode, ROLE_ADMIN)).toEqual([]);

    // Its administrator gives a user the operator role, through the console's calls.
    const admin = (await signIn(server, tenantCode, 'boss', 'secret-123')).access_token;
    const roles = await as(admin, 'GET', entityCalls(sysRoleEntity).query, {
      query: { roleCode: ROLE_OPERATOR },
    });
    const roleId = String(
      (roles.body.data.list as Array<{ id: string; roleCode: string }>).find(
        (role) => role.roleCode === ROLE_OPERATOR,
      )!.id,
    );
    const orgs = await as(admin, 'GET', entityCalls(sysOrgEntity).query);
    const user = await as(admin, 'POST', entityCalls(sysUserEntity).add, {
      body: {
        username: 'watcher',
        nickname: 'Watcher',
        password: 'secret-123',
        orgId: orgs.body.data.list[0].id,
        roleIds: [roleId],
      },
    });
    expect(user.status, JSON.stringify(user.body)).toBe(200);
    const operator = (await signIn(server, tenantCode, 'watcher', 'secret-123')).access_token;
    const seen = await authorityOf(operator);
    expect(seen.iotPaths).toEqual(OPERATOR_IOT_PATHS);
    expect(seen.buttons).toEqual(OPERATOR_BUTTONS);
    const devices = await as(operator, 'GET', entityCalls(iotDeviceEntity).query);
    expect(devices.status).toBe(200);
    expect(devices.body.data.total).toBe(0);
    expect((await as(operator, 'GET', entityCalls(alarmRecordEntity).query)).status).toBe(200);
    const products = await as(operator, 'GET', entityCalls(iotProductEntity).query);
    expect(products.status).toBe(200);
    const added = await as(operator, 'POST', entityCalls(iotDeviceEntity).add, {
      body: {
        deviceNo: 'W-1',
        deviceName: 'Watched',
        productId: products.body.data.list[0].id,
      },
    });
    expect(added.status).toBe(403);

    // The administrator takes sending commands away from the role.
    const held = await as(admin, 'GET', '/api/admin/sysurl/queryUrlIdByRoleId', {
      query: { roleId },
    });
    const send = await as(admin, 'GET', entityCalls(sysUrlEntity).query, {
      query: { url: '/api/iot/command/sendCommand' },
    });
    const sendId = String(
      (send.body.data.list as Array<{ id: string; url: string }>).find(
        (row) => row.url === '/api/iot/command/sendCommand',
      )!.id,
    );
    expect(held.body.data).toContain(sendId);
    const revoked = await as(admin, 'POST', '/api/admin/sysurl/authorizeUrlToRole', {
      body: { roleId, urlIds: (held.body.data as string[]).filter((id) => id !== sendId) },
    });
    expect(revoked.status).toBe(200);
    const expected = OPERATOR_URLS.filter((url) => url !== '/api/iot/command/sendCommand');
    expect(await urlsOf(tenantCode, ROLE_OPERATOR)).toEqual(expected);

    // A restart lists the routes again in every tenant: nothing is granted a second time.
    const restarted = new UrlGrantService(server.db);
    for (const route of await routeCatalogue()) restarted.register(route);
    await server.db.system((sql) => restarted.syncCatalogue(sql));
    expect(await urlsOf(tenantCode, ROLE_OPERATOR)).toEqual(expected);
    expect(await urlsOf('demo', ROLE_OPERATOR)).toEqual(OPERATOR_URLS);
    const refused = await as(operator, 'POST', '/api/iot/command/sendCommand', {
      body: { deviceId: '1', name: 'openGate', params: {} },
    });
    expect(refused.status).toBe(403);
  });

  test('a tenant provisioned before the areas gets their menus and calls at the next start, once', async () => {
    const tenantCode = `up${Date.now().toString(36)}`;
    const created = await as(tokens.platform, 'POST', entityCalls(sysTenantEntity).add, {
      body: {
        tenantCode,
        tenantName: `Upgrade ${tenantCode}`,
        adminUsername: 'boss',
        adminPassword: 'secret-123',
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const areaCodes = DEFAULT_MENUS.filter(
      (menu) =>
        AREAS.some((area) => area.code === menu.menuCode || area.code === menu.parent) ||
        ['deviceDataReport', 'warningInformation'].includes(menu.menuCode),
    ).map((menu) => menu.menuCode);
    const tenantId = await server.db.system(async (sql) => {
      const { rows } = await sql.query<{ id: string }>(
        'SELECT id::text FROM tenant WHERE tenant_code = $1',
        [tenantCode],
      );
      // As the tenant was before issue 18: no area menus, never given them, no area call listed.
      await sql.query('DELETE FROM sys_menu WHERE tenant_id = $1 AND menu_code = ANY($2::text[])', [
        rows[0]!.id,
        areaCodes,
      ]);
      await sql.query(
        'DELETE FROM sys_menu_default WHERE tenant_id = $1 AND menu_code = ANY($2::text[])',
        [rows[0]!.id, areaCodes],
      );
      await sql.query('DELETE FROM sys_url WHERE tenant_id = $1 AND url = $2', [
        rows[0]!.id,
        AREA_DEVICE_CALLS.query,
      ]);
      return rows[0]!.id;
    });
    /** The menu codes a role of the tenant holds. */
    const menusOf = async (roleCode: string) =>
      (
        await server.db.system((sql) =>
          sql.query<{ menu_code: string }>(
            `SELECT m.menu_code FROM sys_role_menu rm JOIN sys_menu m ON m.id = rm.menu_id
               JOIN sys_role r ON r.id = rm.role_id
              WHERE r.tenant_id = $1 AND r.role_code = $2 ORDER BY m.menu_code`,
            [tenantId, roleCode],
          ),
        )
      ).rows.map((row) => row.menu_code);
    expect((await menusOf(ROLE_ADMIN)).filter((code) => areaCodes.includes(code))).toEqual([]);
    expect(await urlsOf(tenantCode, ROLE_OPERATOR)).not.toContain(AREA_DEVICE_CALLS.query);

    await restart();
    expect((await menusOf(ROLE_ADMIN)).filter((code) => areaCodes.includes(code))).toEqual(
      [...areaCodes].sort(),
    );
    const operatorAreaMenus = DEFAULT_MENUS.filter(
      (menu) => areaCodes.includes(menu.menuCode) && menu.roles.includes(ROLE_OPERATOR),
    ).map((menu) => menu.menuCode);
    expect(operatorAreaMenus).toContain('soilMoistureMonitor');
    expect(operatorAreaMenus).not.toContain('irrigationMonitorConfiguration');
    expect((await menusOf(ROLE_OPERATOR)).filter((code) => areaCodes.includes(code))).toEqual(
      [...operatorAreaMenus].sort(),
    );
    expect(await urlsOf(tenantCode, ROLE_OPERATOR)).toEqual(OPERATOR_URLS);

    // Its administrator removes the weather area and takes the area list from the operators.
    await server.db.system(async (sql) => {
      await sql.query(
        `DELETE FROM sys_menu WHERE tenant_id = $1 AND menu_code = 'weatherStation'`,
        [tenantId],
      );
      await sql.query(
        `DELETE FROM sys_role_url ru USING sys_url u, sys_role r
          WHERE ru.url_id = u.id AND ru.role_id = r.id AND r.tenant_id = $1
            AND r.role_code = $2 AND u.url = $3`,
        [tenantId, ROLE_OPERATOR, AREA_DEVICE_CALLS.query],
      );
    });
    await restart();
    const held = await menusOf(ROLE_ADMIN);
    expect(held).not.toContain('weatherStation');
    expect(held).not.toContain('weatherDevice');
    expect(held).toContain('soilMoistureDevice');
    expect(await urlsOf(tenantCode, ROLE_OPERATOR)).not.toContain(AREA_DEVICE_CALLS.query);
  });
  test('a tenant provisioned before card billing gets the cashier role with its menus and calls', async () => {
    const tenantCode = `cb${Date.now().toString(36)}`;
    const created = await as(tokens.platform, 'POST', entityCalls(sysTenantEntity).add, {
      body: {
        tenantCode,
        tenantName: `Before billing ${tenantCode}`,
        adminUsername: 'boss',
        adminPassword: 'secret-123',
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const billingCodes = DEFAULT_MENUS.filter(
      (menu) => menu.menuCode === 'skgg' || menu.parent === 'skgg',
    ).map((menu) => menu.menuCode);
    const cashierMenus = DEFAULT_MENUS.filter((menu) => menu.roles.includes(ROLE_CASHIER))
      .map((menu) => menu.menuCode)
      .sort();
    const cashierUrls = [...DEFAULT_ROLE_GRANTS[ROLE_CASHIER]!.urls].sort();
    expect(cashierMenus.length).toBeGreaterThan(3);
    await server.db.system(async (sql) => {
      const { rows } = await sql.query<{ id: string }>(
        'SELECT id::text FROM tenant WHERE tenant_code = $1',
        [tenantCode],
      );
      const tenantId = rows[0]!.id;
      // As the tenant was before issue 20: no cashier, no billing menus, no billing call listed.
      await sql.query('DELETE FROM sys_role WHERE tenant_id = $1 AND role_code = $2', [
        tenantId,
        ROLE_CASHIER,
      ]);
      await sql.query('DELETE FROM sys_menu WHERE tenant_id = $1 AND menu_code = ANY($2::text[])', [
        tenantId,
        billingCodes,
      ]);
      await sql.query(
        'DELETE FROM sys_menu_default WHERE tenant_id = $1 AND menu_code = ANY($2::text[])',
        [tenantId, billingCodes],
      );
      await sql.query('DELETE FROM sys_url WHERE tenant_id = $1 AND url = ANY($2::text[])', [
        tenantId,
        cashierUrls,
      ]);
    });
    expect(await urlsOf(tenantCode, ROLE_CASHIER)).toEqual([]);

    await restart();
    const menus = await server.db.system((sql) =>
      sql.query<{ menu_code: string }>(
        `SELECT m.menu_code FROM sys_role_menu rm JOIN sys_menu m ON m.id = rm.menu_id
           JOIN sys_role r ON r.id = rm.role_id JOIN tenant t ON t.id = r.tenant_id
          WHERE t.tenant_code = $1 AND r.role_code = $2 ORDER BY m.menu_code`,
        [tenantCode, ROLE_CASHIER],
      ),
    );
    expect(menus.rows.map((row) => row.menu_code)).toEqual(cashierMenus);
    expect(await urlsOf(tenantCode, ROLE_CASHIER)).toEqual(cashierUrls);

    // Its administrator deletes the role: a later start does not bring it back.
    await server.db.system((sql) =>
      sql.query(
        `DELETE FROM sys_role WHERE role_code = $1
            AND tenant_id = (SELECT id FROM tenant WHERE tenant_code = $2)`,
        [ROLE_CASHIER, tenantCode],
      ),
    );
    await restart();
    const left = await server.db.system((sql) =>
      sql.query(
        `SELECT 1 FROM sys_role r JOIN tenant t ON t.id = r.tenant_id
          WHERE t.tenant_code = $1 AND r.role_code = $2`,
        [tenantCode, ROLE_CASHIER],
      ),
    );
    expect(left.rows).toEqual([]);
  });
});
