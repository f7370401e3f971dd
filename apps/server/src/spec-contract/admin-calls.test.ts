import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { specClient, type SpecClient } from '@shuili/test-support/spec-client';

/**
 * Spec §7 "Administration services", in the spec's own words: add and update send data (a
 * JSON body with the spec §3 field names), deletes and look-ups send params (query, or a form
 * body for POST), exports answer a file. Every service is walked through add → query → update
 * → export → delete, so a client written from the spec alone works unchanged.
 */

interface Service {
  /** The service's path and the entity name inside its call names (addSysRole...). */
  path: string;
  name: string;
  /** A record in spec §3 field names; `unique` makes it differ between runs. */
  add(unique: string): Record<string, unknown>;
  update: Record<string, unknown>;
  /** The field a query filters by to find the record again, and how delete names it. */
  find: string;
  key?: string;
  tree?: boolean;
  /** Call names that differ from add<Name>... (zones: addZone, queryZone...). */
  calls?: Partial<Record<'add' | 'query' | 'update' | 'delete' | 'tree', string>>;
  exports?: boolean;
}

describe.each(BACKENDS)('spec §7 administration services on $backend', ({ backend, available }) => {
  let server: TestServer;
  let admin: SpecClient;
  let platform: SpecClient;
  let roleId: string;
  let orgId: string;
  let adminId: string;
  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    admin = specClient(server, (await signIn(server, 'demo', 'admin', 'admin123')).access_token);
    platform = specClient(
      server,
      (await signIn(server, 'platform', 'admin', 'admin123')).access_token,
    );
    const roles = await admin.data('GET', '/api/admin/sysrole/querySysRole', {
      params: { roleCode: 'ROLE_OPERATOR' },
    });
    roleId = roles.list[0].id;
    orgId = (await admin.data('GET', '/api/admin/sysorg/querySysOrg', { params: {} })).list[0].id;
    adminId = (await admin.data('GET', '/api/uaa/users/getSysUser')).id;
  });
  afterAll(async () => server?.close());

  let counter = 0;
  const unique = () => `${Date.now().toString(36)}${(counter += 1)}`;

  const services: Service[] = [
    {
      path: '/api/admin/syszone',
      name: 'SysZone',
      calls: { add: 'addZone', query: 'queryZone', update: 'updateZone', delete: 'deleteZone' },
      add: (u) => ({ zoneName: `Canal ${u}`, zoneCode: `Z${u}`, zoneSequence: 1 }),
      update: { zoneName: 'Canal renamed' },
      find: 'zoneCode',
    },
    {
      path: '/api/admin/sysrole',
      name: 'SysRole',
      add: (u) => ({
        roleCode: `ROLE_S${u}`.toUpperCase(),
        roleName: `Role ${u}`,
        roleDescription: 'spec',
      }),
      update: { roleName: 'Role renamed' },
      find: 'roleCode',
    },
    {
      path: '/api/admin/syspost',
      name: 'SysPost',
      tree: true,
      add: (u) => ({ postCode: `P${u}`, postName: `Post ${u}`, postSequence: 1 }),
      update: { postName: 'Post renamed' },
      find: 'postCode',
    },
    {
      path: '/api/admin/sysurl',
      name: 'SysUrl',
      add: (u) => ({ url: `/api/spec/${u}`, description: 'spec' }),
      update: { description: 'renamed' },
      find: 'url',
    },
    {
      path: '/api/admin/sysmenu',
      name: 'SysMenu',
      tree: true,
      add: (u) => ({
        menuCode: `m${u}`,
        menuName: `Menu ${u}`,
        menuIcon: 'table',
        menuPath: `/spec${u}`,
        menuComponent: 'Layout',
        menuSequence: 99,
        menuStatus: 1,
      }),
      update: { menuName: 'Menu renamed' },
      find: 'menuCode',
    },
    {
      path: '/api/admin/sysorg',
      name: 'SysOrg',
      tree: true,
      add: (u) => ({
        orgType: 'team',
        orgName: `Team ${u}`,
        orgDescription: 'spec',
        orgSequence: 3,
      }),
      update: { orgName: 'Team renamed' },
      find: 'orgName',
    },
    {
      path: '/api/admin/sysdict',
      name: 'SysDict',
      tree: true,
      add: (u) => ({ dictType: `spec_${u}`, dictName: `Dict ${u}`, dictValue: u, dictSequence: 1 }),
      update: { dictName: 'Dict renamed' },
      find: 'dictType',
    },
    {
      path: '/api/admin/sysparam',
      name: 'SysParam',
      add: (u) => ({ paramName: `Param ${u}`, paramKey: `spec.${u}`, paramValue: '42' }),
      update: { paramValue: '43' },
      find: 'paramKey',
    },
  ];

  for (const service of services) {
    const callOf = (kind: 'add' | 'query' | 'update' | 'delete' | 'tree') =>
      `${service.path}/${service.calls?.[kind] ?? `${kind === 'tree' ? 'query' : kind}${service.name}${kind === 'tree' ? 'Tree' : ''}`}`;

    it.skipIf(!available)(
      `${service.path}: add (data), query (params), update (data), exports, delete by id (params)`,
      async () => {
        const record = service.add(unique());
        const added = await admin.data('POST', callOf('add'), { data: record });
        expect(added).toMatchObject(record);
        const found = await admin.data('GET', callOf('query'), {
          params: { [service.find]: String(record[service.find]) },
        });
        expect(found.list.map((row: { id: string }) => row.id)).toContain(added.id);
        const updated = await admin.data('PUT', callOf('update'), {
          data: { id: added.id, ...service.update },
        });
        expect(updated).toMatchObject(service.update);
        if (service.tree) {
          const roots = await admin.data('GET', callOf('tree'));
          expect(roots.map((row: { id: string }) => row.id)).toContain(added.id);
        }
        for (const exportCall of [
          `export${service.name}`,
          `exportWord${service.name}`,
          `exportPDF${service.name}`,
        ]) {
          const file = await admin.send('POST', `${service.path}/${exportCall}`, {
            params: { [service.find]: String(record[service.find]) },
          });
          expect(file.status, exportCall).toBe(200);
          expect(file.headers.get('content-disposition'), exportCall).toMatch(/attachment/);
        }
        const removed = await admin.data('POST', callOf('delete'), { params: { id: added.id } });
        expect(removed.deleted).toBe(1);
      },
    );
  }

  it.skipIf(!available)(
    'zones: assignZone with params, queryAssignedZoneIds, queryCurrentZones',
    async () => {
      const zone = await admin.data('POST', '/api/admin/syszone/addZone', {
        data: { zoneName: 'Assigned canal', zoneCode: `ZA${unique()}`, zoneSequence: 1 },
      });
      const user = await admin.data('POST', '/api/admin/sysuser/addSysUser', {
        data: {
          username: `zoned${unique()}`,
          nickname: 'Zoned',
          password: 'Canal-2026-spec',
          status: 1,
          roleId,
          orgId,
        },
      });
      await admin.data('POST', '/api/admin/syszone/assignZone', {
        params: { userId: user.id, zoneIds: zone.id },
      });
      const assigned = await admin.data('GET', '/api/admin/syszone/queryAssignedZoneIds', {
        params: { sysUserId: user.id },
      });
      expect(JSON.stringify(assigned)).toContain(zone.id);
      const current = await admin.data('GET', '/api/admin/syszone/queryCurrentZones');
      expect(Array.isArray(current)).toBe(true);
    },
  );

  it.skipIf(!available)(
    'users: add and update with roleId and orgId; rows answer roleId; the user calls of §7',
    async () => {
      const name = `spec${unique()}`;
      const user = await admin.data('POST', '/api/admin/sysuser/addSysUser', {
        data: {
          username: name,
          nickname: 'Spec user',
          password: 'Canal-2026-spec',
          email: `${name}@spec.example`,
          mobile: '+8613987650101',
          status: 1,
          roleId,
          orgId,
          geographic: 'Ningxia',
          address: 'Qingtongxia canal 3',
          profile: 'Night shift',
        },
      });
      expect(user.roleId).toBe(roleId);
      expect(user.orgId).toBe(orgId);
      const listed = await admin.data('GET', '/api/admin/sysuser/querySysUser', {
        params: { username: name },
      });
      expect(listed.list[0].roleId).toBe(roleId);
      const adminRole = (
        await admin.data('GET', '/api/admin/sysrole/querySysRole', {
          params: { roleCode: 'ROLE_ADMIN' },
        })
      ).list[0].id;
      const updated = await admin.data('PUT', '/api/admin/sysuser/updateSysUser', {
        data: { id: user.id, nickname: 'Renamed', roleId: adminRole },
      });
      expect(updated.roleId).toBe(adminRole);
      await admin.data('POST', '/api/admin/sysuser/authorizeRoleToUser', {
        data: { userId: user.id, roleId },
      });
      const detail = await admin.data('GET', '/api/admin/sysuser/queryUserInfoDetail', {
        params: { id: user.id },
      });
      expect(detail).toMatchObject({ username: name, roleId, orgId });
      expect(
        (
          await admin.data('GET', '/api/admin/sysuser/queryUsername', {
            params: { username: name },
          })
        ).exists,
      ).toBe(true);
      const online = await admin.data('GET', '/api/admin/sysuser/queryOnlineSysUser', {
        params: {},
      });
      expect(online.list.length).toBeGreaterThan(0);
      expect(
        (
          await admin.send('POST', '/api/admin/sysuser/removePrincipal', {
            params: { username: name },
          })
        ).status,
      ).toBe(200);
      for (const exportCall of ['exportSysUser', 'exportWordSysUser', 'exportPDFSysUser']) {
        const file = await admin.send('POST', `/api/admin/sysuser/${exportCall}`, { params: {} });
        expect(file.status, exportCall).toBe(200);
      }
      const removed = await admin.data('POST', '/api/admin/sysuser/deleteSysUser', {
        params: { id: user.id },
      });
      expect(removed.deleted).toBe(1);
    },
  );

  it.skipIf(!available)(
    'users: queryUserProject and bindUserProject (data) bind the IoT projects a user works on',
    async () => {
      const projects = await admin.data('GET', '/api/iot/project/queryIotProject', { params: {} });
      const projectId = projects.list[0].id;
      const user = await admin.data('POST', '/api/admin/sysuser/addSysUser', {
        data: {
          username: `proj${unique()}`,
          nickname: 'Project user',
          password: 'Canal-2026-spec',
          status: 1,
          roleId,
          orgId,
        },
      });
      await admin.data('POST', '/api/admin/sysuser/bindUserProject', {
        data: { userId: user.id, projectIds: [projectId] },
      });
      const bound = await admin.data('GET', '/api/admin/sysuser/queryUserProject', {
        params: { userId: user.id },
      });
      expect(JSON.stringify(bound)).toContain(projectId);
    },
  );

  it.skipIf(!available)('users: addSysTenantUser with params tenantCode and userId', async () => {
    const answer = await platform.send('POST', '/api/admin/sysuser/addSysTenantUser', {
      params: { tenantCode: 'acme', userId: adminId },
    });
    expect([200, 409]).toContain(answer.status);
  });

  it.skipIf(!available)(
    'user detail: updateSysUserDetail (data); updatePassword with password, newPassword and id answers "success"',
    async () => {
      const name = `self${unique()}`;
      await admin.data('POST', '/api/admin/sysuser/addSysUser', {
        data: {
          username: name,
          nickname: 'Self',
          password: 'Canal-2026-spec',
          status: 1,
          roleId,
          orgId,
        },
      });
      const self = specClient(
        server,
        (await signIn(server, 'demo', name, 'Canal-2026-spec')).access_token,
      );
      const me = await self.data('GET', '/api/uaa/users/getSysUser');
      const detail = await self.data('PUT', '/api/account/sysuserdetail/updateSysUserDetail', {
        data: {
          nickname: 'Self renamed',
          address: 'Gate 4',
          geographic: 'Ningxia',
          profile: 'Pumps',
        },
      });
      expect(detail).toMatchObject({ nickname: 'Self renamed', address: 'Gate 4' });
      const changed = await self.send('PUT', '/api/account/sysuserdetail/updatePassword', {
        data: { password: 'Canal-2026-spec', newPassword: 'Sluice-2026-next', id: me.id },
      });
      expect(changed.status).toBe(200);
      expect(changed.body.message).toBe('success');
      await expect(signIn(server, 'demo', name, 'Sluice-2026-next')).resolves.toBeDefined();
    },
  );

  it.skipIf(!available)(
    'roles: queryRoleName (userId, postCode, assign), queryRoleNameCheckbox, queryRoleCode, authorizeUserToRole',
    async () => {
      const held = await admin.data('GET', '/api/admin/sysrole/queryRoleName', {
        params: { userId: adminId, assign: 'true' },
      });
      expect(held.map((role: { roleCode: string }) => role.roleCode)).toContain('ROLE_ADMIN');
      const byPost = await admin.send('GET', '/api/admin/sysrole/queryRoleName', {
        params: { userId: adminId, postCode: 'no-such-post', assign: 'true' },
      });
      expect(byPost.status).toBe(200);
      expect(
        (await admin.data('GET', '/api/admin/sysrole/queryRoleNameCheckbox')).length,
      ).toBeGreaterThan(0);
      expect(
        (
          await admin.data('GET', '/api/admin/sysrole/queryRoleCode', {
            params: { roleCode: 'ROLE_ADMIN' },
          })
        ).exists,
      ).toBe(true);
      const role = await admin.data('POST', '/api/admin/sysrole/addSysRole', {
        data: { roleCode: `ROLE_U${unique()}`.toUpperCase(), roleName: 'Users of a role' },
      });
      await admin.data('POST', '/api/admin/sysrole/authorizeUserToRole', {
        data: { roleId: role.id, userIds: [adminId] },
      });
      const orgUsers = await admin.data('GET', '/api/admin/sysorg/queryOrgUserTree', {
        params: { roleId: role.id, assign: 'true' },
      });
      expect(JSON.stringify(orgUsers)).toContain(adminId);
    },
  );

  it.skipIf(!available)(
    'user posts: query, tree by userId, add, update, delete by id, exports',
    async () => {
      const post = await admin.data('POST', '/api/admin/syspost/addSysPost', {
        data: { postCode: `UP${unique()}`, postName: 'Gate keeper', postSequence: 1 },
      });
      const link = await admin.data('POST', '/api/admin/sysuserpost/addSysUserPost', {
        data: { userId: adminId, postId: post.id },
      });
      const listed = await admin.data('GET', '/api/admin/sysuserpost/querySysUserPost', {
        params: { userId: adminId },
      });
      expect(listed.list.map((row: { id: string }) => row.id)).toContain(link.id);
      const tree = await admin.data('GET', '/api/admin/sysuserpost/querySysUserPostTree', {
        params: { userId: adminId },
      });
      expect(JSON.stringify(tree)).toContain(post.id);
      const other = await admin.data('POST', '/api/admin/syspost/addSysPost', {
        data: { postCode: `UQ${unique()}`, postName: 'Pump keeper', postSequence: 2 },
      });
      const moved = await admin.data('PUT', '/api/admin/sysuserpost/updateSysUserPost', {
        data: { id: link.id, postId: other.id },
      });
      expect(moved.postId).toBe(other.id);
      for (const exportCall of [
        'exportSysUserPost',
        'exportWordSysUserPost',
        'exportPDFSysUserPost',
      ])
        expect(
          (await admin.send('POST', `/api/admin/sysuserpost/${exportCall}`, { params: {} })).status,
        ).toBe(200);
      expect(
        (
          await admin.data('POST', '/api/admin/sysuserpost/deleteSysUserPost', {
            params: { id: link.id },
          })
        ).deleted,
      ).toBe(1);
    },
  );

  it.skipIf(!available)(
    'URLs: queryRoleIdByUrlId, queryUrlIdByRoleId, authorizeRoleToUrl, authorizeUrlToRole',
    async () => {
      const url = await admin.data('POST', '/api/admin/sysurl/addSysUrl', {
        data: { url: `/api/spec/grant${unique()}`, description: 'granted' },
      });
      await admin.data('POST', '/api/admin/sysurl/authorizeRoleToUrl', {
        data: { urlId: url.id, roleIds: [roleId] },
      });
      expect(
        await admin.data('GET', '/api/admin/sysurl/queryRoleIdByUrlId', {
          params: { urlId: url.id },
        }),
      ).toEqual([roleId]);
      const urls = await admin.data('GET', '/api/admin/sysurl/queryUrlIdByRoleId', {
        params: { roleId },
      });
      expect(urls).toContain(url.id);
      await admin.data('POST', '/api/admin/sysurl/authorizeUrlToRole', {
        data: { roleId, urlIds: urls },
      });
    },
  );

  it.skipIf(!available)(
    'menus: role menus, buttons (checkbox without parameters, checked by menuCode), data fields',
    async () => {
      const menuIds = await admin.data('GET', '/api/admin/sysmenu/queryMenuIdByRoleId', {
        params: { roleId },
      });
      await admin.data('POST', '/api/admin/sysmenu/authorizeMenuToRole', {
        data: { roleId, menuIds },
      });
      const allButtons = await admin.data('GET', '/api/admin/sysmenu/queryMenuButtonCheckbox');
      expect(allButtons.length).toBeGreaterThan(5);
      const checked = await admin.data('GET', '/api/admin/sysmenu/queryCheckedMenuButton', {
        params: { menuCode: 'sysuser' },
      });
      expect(checked.length).toBeGreaterThan(0);
      expect(
        (await admin.data('GET', '/api/admin/sysmenu/querySysMenuButtonTree')).length,
      ).toBeGreaterThan(0);
      const byRole = await admin.data('GET', '/api/admin/sysmenu/queryMenuButtonByRoleCode', {
        params: { roleCode: 'ROLE_OPERATOR' },
      });
      expect(Array.isArray(byRole)).toBe(true);
      await admin.data('POST', '/api/admin/sysmenu/authorizeMenuButtonToRole', {
        data: { roleId, buttonIds: [] },
      });
      const fields = await admin.data('GET', '/api/admin/sysmenu/queryDataFieldByMenuCode', {
        params: { menuCode: 'sysuser' },
      });
      expect(fields.length).toBeGreaterThan(0);
      await admin.data('POST', '/api/admin/sysmenu/authorizeMenuDataToRole', {
        data: { roleCode: 'ROLE_OPERATOR', menuCode: 'sysuser', dataFields: 'username,nickname' },
      });
      const rules = await admin.data('GET', '/api/admin/sysdatapermission/queryDataPermission', {
        params: { roleCode: 'ROLE_OPERATOR', menuCode: 'sysuser' },
      });
      const removed = await admin.send('POST', '/api/admin/sysmenu/deleteDataField', {
        params: { id: rules.list[0].id },
      });
      expect(removed.status).toBe(200);
    },
  );

  it.skipIf(!available)(
    'organisations and dictionaries: queryOrgType, queryDictByDictType',
    async () => {
      const types = await admin.data('GET', '/api/admin/sysorg/queryOrgType');
      expect(types.map((type: { dictValue: string }) => type.dictValue)).toContain('team');
      const priorities = await admin.data('GET', '/api/admin/sysdict/queryDictByDictType', {
        params: { dictType: 'notification_priority' },
      });
      expect(priorities.length).toBeGreaterThan(0);
    },
  );

  it.skipIf(!available)(
    'regions: GET /api/admin/querySysRegion, queryRegionType, tree, add, update, delete by regionCode, exports',
    async () => {
      const regions = await platform.data('GET', '/api/admin/querySysRegion', { params: {} });
      expect(regions.list.length).toBeGreaterThan(0);
      expect((await platform.data('GET', '/api/admin/sysregion/queryRegionType')).length).toBe(4);
      expect(
        (await platform.data('GET', '/api/admin/sysregion/querySysRegionTree')).length,
      ).toBeGreaterThan(0);
      const regionCode = `99${String(Date.now()).slice(-8)}`;
      await platform.data('POST', '/api/admin/sysregion/addSysRegion', {
        data: { regionName: 'Spec county', regionCode, regionType: 'county' },
      });
      const updated = await platform.data('PUT', '/api/admin/sysregion/updateSysRegion', {
        data: { regionCode, regionName: 'Spec county renamed' },
      });
      expect(updated.regionName).toBe('Spec county renamed');
      for (const exportCall of ['exportSysRegion', 'exportWordSysRegion', 'exportPDFSysRegion'])
        expect(
          (
            await platform.send('POST', `/api/admin/sysregion/${exportCall}`, {
              params: { regionCode },
            })
          ).status,
        ).toBe(200);
      expect(
        (
          await platform.data('POST', '/api/admin/sysregion/deleteSysRegion', {
            params: { regionCode },
          })
        ).deleted,
      ).toBe(1);
    },
  );

  it.skipIf(!available)(
    'app clients: add with clientSecret (stored hashed), update, delete by clientId, exports',
    async () => {
      const clientId = `spec-${unique()}`;
      const added = await platform.data('POST', '/api/uaa/appclient/addAppClient', {
        data: {
          clientId,
          clientSecret: 'a-long-spec-client-secret-2026',
          authorizedGrantTypes: ['authorization_code', 'refresh_token'],
          scope: ['ui'],
          accessTokenValidity: 3600,
          refreshTokenValidity: 86400,
          webServerRedirectUri: 'https://district.example/callback',
          autoapprove: 'true',
        },
      });
      expect(JSON.stringify(added)).not.toContain('a-long-spec-client-secret-2026');
      await platform.data('PUT', '/api/uaa/appclient/updateAppClient', {
        data: {
          clientId,
          clientSecret: 'another-long-spec-secret-2026',
          accessTokenValidity: 1800,
        },
      });
      for (const exportCall of ['exportAppClient', 'exportWordAppClient', 'exportPDFAppClient'])
        expect(
          (
            await platform.send('POST', `/api/uaa/appclient/${exportCall}`, {
              params: { clientId },
            })
          ).status,
        ).toBe(200);
      expect(
        (
          await platform.data('POST', '/api/uaa/appclient/deleteAppClient', {
            params: { clientId },
          })
        ).deleted,
      ).toBe(1);
    },
  );

  it.skipIf(!available)(
    'tenants: add without an administrator, with start and end time; update, exports, delete by id',
    async () => {
      const tenantCode = `spec${unique()}`;
      const tenant = await platform.data('POST', '/api/admin/systenant/addSysTenant', {
        data: {
          tenantCode,
          tenantName: 'Spec district',
          domain: `${tenantCode}.example`,
          startTime: '2026-01-01 00:00:00',
          endTime: '2036-01-01 00:00:00',
          contact: 'Li Wei',
          email: `office@${tenantCode}.example`,
          tel: '+86 951 1234567',
        },
      });
      expect(tenant.tenantCode).toBe(tenantCode);
      const updated = await platform.data('PUT', '/api/admin/systenant/updateSysTenant', {
        data: { id: tenant.id, tenantName: 'Spec district renamed' },
      });
      expect(updated.tenantName).toBe('Spec district renamed');
      for (const exportCall of ['exportSysTenant', 'exportWordSysTenant', 'exportPDFSysTenant'])
        expect(
          (await platform.send('POST', `/api/admin/systenant/${exportCall}`, { params: {} }))
            .status,
        ).toBe(200);
      expect(
        (
          await platform.data('POST', '/api/admin/systenant/deleteSysTenant', {
            params: { id: tenant.id },
          })
        ).deleted,
      ).toBe(1);
    },
  );

  it.skipIf(!available)(
    'notifications: add with type notice, the bell lists it; queryNotificationType and priority',
    async () => {
      const types = await admin.data('GET', '/api/notification/notification/queryNotificationType');
      expect(types.map((type: { dictValue: string }) => type.dictValue)).toEqual(
        expect.arrayContaining(['notice', 'message']),
      );
      const priorities = await admin.data(
        'GET',
        '/api/notification/notification/queryNotificationPriority',
      );
      const added = await admin.data('POST', '/api/notification/notification/addNotification', {
        data: {
          title: 'Canal 3 closes at 18:00',
          content: '<p>Maintenance of gate 4.</p>',
          type: 'notice',
          priority: priorities[0].dictValue,
        },
      });
      expect(added.type).toBe('notice');
      const found = await admin.data('GET', '/api/notification/notification/queryNotification', {
        params: { title: 'Canal 3 closes at 18:00' },
      });
      expect(found.list[0].id).toBe(added.id);
      await admin.data('PUT', '/api/notification/notification/updateNotification', {
        data: { id: added.id, title: 'Canal 3 closes at 19:00' },
      });
      const head = await admin.data('GET', '/api/notification/notification/queryHeadNotification');
      expect(JSON.stringify(head)).toContain('Canal 3 closes at 19:00');
      expect(
        (
          await admin.data('POST', '/api/notification/notification/deleteNotification', {
            params: { id: added.id },
          })
        ).deleted,
      ).toBe(1);
    },
  );

  it.skipIf(!available)(
    'cameras: GET /api/video/camera/queryAllCamera lists the cameras',
    async () => {
      const cameras = await admin.data('GET', '/api/video/camera/queryAllCamera');
      // The demo district has cameras (the camera entity, in its zones), with their streams.
      expect(cameras.length).toBeGreaterThan(0);
      expect(cameras[0]).toMatchObject({
        cameraName: expect.any(String),
        streamType: expect.stringMatching(/^(hls|flv)$/),
        streamUrl: expect.any(String),
      });
      const inZone = await admin.data('GET', '/api/video/camera/queryAllCamera', {
        params: { zoneId: cameras[0].zoneId },
      });
      expect(inZone.length).toBeGreaterThan(0);
      expect(
        inZone.every((camera: { zoneId: string }) => camera.zoneId === cameras[0].zoneId),
      ).toBe(true);
    },
  );
});
