import {
  cameraEntity,
  dataPermissionEntity,
  ENTITIES,
  entityCalls,
  iotDeviceEntity,
  ROLE_OPERATOR,
  VIDEO_CALLS,
  type MenuButtonNode,
} from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';

/** Every menu code of a menu tree, depth first. */
function menuCodes(nodes: MenuButtonNode[]): string[] {
  return nodes.flatMap((node) => [node.menuCode, ...menuCodes(node.children)]);
}

/**
 * Data permissions (which fields a role sees on a menu's screen) for every menu whose screen
 * lists tenant data, IoT menus included, as the entity declarations say; a clear 400 for a menu
 * that lists none.
 */
describe.each(BACKENDS)('data permissions on $backend', ({ backend, available }) => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    admin = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
  });
  afterAll(async () => server?.close());

  const authorize = (menuCode: string, dataFields: string, lang?: string) =>
    call(server, 'POST', '/api/admin/sysmenu/authorizeMenuDataToRole', {
      token: admin,
      lang,
      body: { roleCode: ROLE_OPERATOR, menuCode, dataFields },
    });
  const rulesOf = async (roleCode: string) =>
    (
      await call(server, 'GET', entityCalls(dataPermissionEntity).query, {
        token: admin,
        query: { roleCode, pageSize: '100' },
      })
    ).body.data.list as Array<{ menuCode: string; dataFields: string }>;

  it.skipIf(!available)(
    'grants fields of the device list, reads them back and hides the rest from the role',
    async () => {
      const fields = await call(server, 'GET', '/api/admin/sysmenu/queryDataFieldByMenuCode', {
        token: admin,
        query: { menuCode: iotDeviceEntity.menuCode },
      });
      expect(fields.status).toBe(200);
      expect(fields.body.data).toEqual(
        expect.arrayContaining([
          { field: 'deviceNo', label: 'Device no.' },
          { field: 'deviceName', label: 'Device name' },
        ]),
      );

      const granted = await authorize(iotDeviceEntity.menuCode, ' deviceNo , deviceName ');
      expect(granted.status).toBe(200);
      expect(await rulesOf(ROLE_OPERATOR)).toContainEqual(
        expect.objectContaining({ menuCode: 'iotdevice', dataFields: 'deviceNo,deviceName' }),
      );

      // The operator's device list now carries only those fields; the administrator's all.
      const operator = (await signIn(server, 'demo', 'operator', 'operator123')).access_token;
      for (const [token, seesProduct] of [
        [operator, false],
        [admin, true],
      ] as const) {
        const listed = await call(server, 'GET', entityCalls(iotDeviceEntity).query, { token });
        expect(listed.status).toBe(200);
        expect(listed.body.data.list.length).toBeGreaterThan(0);
        for (const row of listed.body.data.list) {
          expect(row).toHaveProperty('deviceName');
          expect(Object.hasOwn(row, 'productId')).toBe(seesProduct);
        }
      }
    },
  );

  it.skipIf(!available)(
    "accepts exactly the menus whose screens list tenant data, from the entities' declarations",
    async () => {
      const tree = await call(server, 'GET', '/api/admin/sysmenu/querySysMenuButtonTree', {
        token: admin,
      });
      const codes = menuCodes(tree.body.data as MenuButtonNode[]);
      const listing = new Set(
        ENTITIES.filter((entity) => entity.scope === 'tenant').map((entity) => entity.menuCode),
      );
      // IoT menus among them, and menus that list nothing (the workbench, groups).
      expect(codes).toEqual(expect.arrayContaining(['iotdevice', 'alarmRecord', 'workbench']));
      for (const menuCode of codes) {
        const fields = await call(server, 'GET', '/api/admin/sysmenu/queryDataFieldByMenuCode', {
          token: admin,
          query: { menuCode },
        });
        const names = (fields.body.data as Array<{ field: string }>).map((field) => field.field);
        expect({ menuCode, lists: names.length > 0 }).toEqual({
          menuCode,
          lists: listing.has(menuCode),
        });
        if (!listing.has(menuCode)) continue;
        const granted = await authorize(menuCode, names.slice(0, 2).join(','));
        expect({ menuCode, status: granted.status }).toEqual({ menuCode, status: 200 });
      }
    },
  );

  it.skipIf(!available)(
    'refuses a menu that lists no data, or a field its screen lacks, with a clear 400 and writes nothing',
    async () => {
      const before = await rulesOf(ROLE_OPERATOR);
      const workbench = await authorize('workbench', 'deviceNo');
      expect(workbench.status).toBe(400);
      expect(workbench.body.errors).toEqual([
        {
          field: 'menuCode',
          message: 'Menu code: this menu lists no data, so it has no data fields to authorise',
        },
      ]);
      const zh = await authorize('iot', 'deviceNo', 'zh');
      expect(zh.status).toBe(400);
      expect(zh.body.errors[0].message).toBe('菜单编码：该菜单不列出数据，没有可授权的数据字段');
      const unknown = await authorize('iotdevice', 'deviceNo,secret,nope');
      expect(unknown.status).toBe(400);
      expect(unknown.body.errors).toEqual([
        expect.objectContaining({ field: 'dataFields', message: expect.stringContaining('nope') }),
      ]);

      // The rules screen's own add call is held to the same check.
      const added = await call(server, 'POST', entityCalls(dataPermissionEntity).add, {
        token: admin,
        body: { roleCode: 'ROLE_AUDITOR', menuCode: 'workbench', dataFields: 'deviceNo' },
      });
      expect(added.status).toBe(400);
      expect(added.body.errors[0].field).toBe('menuCode');
      expect(await rulesOf(ROLE_OPERATOR)).toEqual(before);
      expect(await rulesOf('ROLE_AUDITOR')).toEqual([]);
    },
  );

  it.skipIf(!available)(
    "the camera list (spec §7 queryAllCamera) hides what the camera screen's rule hides",
    async () => {
      const operator = (await signIn(server, 'demo', 'operator', 'operator123')).access_token;
      const cameras = async () => {
        const answer = await call(server, 'GET', VIDEO_CALLS.queryAll, { token: operator });
        expect(answer.status).toBe(200);
        expect(answer.body.data.length).toBeGreaterThan(0);
        return answer.body.data as Array<Record<string, unknown>>;
      };
      expect(
        (await authorize(cameraEntity.menuCode, 'cameraName,streamType,streamUrl')).status,
      ).toBe(200);
      for (const camera of await cameras()) {
        expect(camera.cameraName).toEqual(expect.any(String));
        expect(camera.streamUrl).toEqual(expect.any(String));
        expect(camera).toMatchObject({ lat: null, lng: null, zoneId: null, zoneName: null });
      }
      expect((await authorize(cameraEntity.menuCode, 'cameraName,lat,lng')).status).toBe(200);
      const [shown] = await cameras();
      expect(shown!.lat).toEqual(expect.any(Number));
      expect(shown!.streamUrl).toBeNull();
    },
  );
});
