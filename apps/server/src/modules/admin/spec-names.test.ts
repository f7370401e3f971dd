import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, call, requestToken, signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';

/**
 * Issue 16: the spec's own names (spec §3 fields, §7 parameters) work beside the console's
 * richer forms: a user's roleId, the button and role look-ups by the spec's parameters, the
 * notification type `notice`, an app client's own clientSecret, and tenants with start and end
 * time in the spec's format and no initial administrator.
 */
describe.each(BACKENDS)('spec names on $backend', ({ backend, available }) => {
  let server: TestServer;
  let admin: string;
  let platform: string;
  let operatorRole: string;
  let adminRole: string;
  let orgId: string;
  let adminId: string;
  let counter = 0;
  const unique = () => `${Date.now().toString(36)}${(counter += 1)}`;

  const api = (
    token: string,
    method: string,
    path: string,
    options: { body?: unknown; query?: Record<string, string>; lang?: string } = {},
  ) => call(server, method, path, { token, ...options });
  const data = async (token: string, method: string, path: string, options = {}) => {
    const answer = await api(token, method, path, options);
    expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(200);
    return answer.body.data;
  };

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    admin = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
    platform = (await signIn(server, 'platform', 'admin', 'admin123')).access_token;
    const roles = await data(admin, 'GET', '/api/admin/sysrole/querySysRole', {
      query: { pageSize: '100' },
    });
    const roleOf = (code: string) =>
      roles.list.find((role: { roleCode: string }) => role.roleCode === code).id as string;
    operatorRole = roleOf('ROLE_OPERATOR');
    adminRole = roleOf('ROLE_ADMIN');
    orgId = (await data(admin, 'GET', '/api/admin/sysorg/querySysOrg')).list[0].id;
    adminId = (await data(admin, 'GET', '/api/uaa/users/getSysUser')).id;
  });
  afterAll(async () => server?.close());

  const newUser = (extra: Record<string, unknown>) =>
    data(admin, 'POST', '/api/admin/sysuser/addSysUser', {
      body: {
        username: `spec${unique()}`,
        nickname: 'Spec user',
        password: 'Canal-2026-spec',
        orgId,
        ...extra,
      },
    });

  describe('users: roleId beside roleIds', () => {
    it.skipIf(!available)(
      'add and update take roleId; every user row answers roleId beside roleIds',
      async () => {
        const user = await newUser({ roleId: operatorRole });
        expect(user).toMatchObject({ roleId: operatorRole, roleIds: [operatorRole], orgId });

        const listed = await data(admin, 'GET', '/api/admin/sysuser/querySysUser', {
          query: { username: user.username },
        });
        expect(listed.list[0]).toMatchObject({ roleId: operatorRole, roleIds: [operatorRole] });

        const updated = await data(admin, 'PUT', '/api/admin/sysuser/updateSysUser', {
          body: { id: user.id, roleId: adminRole },
        });
        expect(updated).toMatchObject({ roleId: adminRole, roleIds: [adminRole] });

        const detail = await data(admin, 'GET', '/api/admin/sysuser/queryUserInfoDetail', {
          query: { id: user.id },
        });
        expect(detail).toMatchObject({ roleId: adminRole, roleIds: [adminRole] });
      },
    );

    it.skipIf(!available)(
      'roleId with roleIds must be one of them; neither on add is "roles required"',
      async () => {
        const both = await newUser({ roleId: adminRole, roleIds: [operatorRole, adminRole] });
        expect([...both.roleIds].sort()).toEqual([operatorRole, adminRole].sort());
        expect(both.roleId).toBe(both.roleIds[0]);

        const disagree = await api(admin, 'POST', '/api/admin/sysuser/addSysUser', {
          body: {
            username: `spec${unique()}`,
            nickname: 'Spec user',
            password: 'Canal-2026-spec',
            orgId,
            roleId: adminRole,
            roleIds: [operatorRole],
          },
          lang: 'zh',
        });
        expect(disagree.status).toBe(400);
        expect(disagree.body.errors[0].field).toBe('roleId');
        expect(disagree.body.message).toMatch(/[\u3400-\u9fff]/);

        const onUpdate = await api(admin, 'PUT', '/api/admin/sysuser/updateSysUser', {
          body: { id: both.id, roleId: adminRole, roleIds: [operatorRole] },
        });
        expect(onUpdate.status).toBe(400);
        expect(onUpdate.body.errors[0].field).toBe('roleId');

        const none = await api(admin, 'POST', '/api/admin/sysuser/addSysUser', {
          body: {
            username: `spec${unique()}`,
            nickname: 'Spec user',
            password: 'Canal-2026-spec',
            orgId,
          },
        });
        expect(none.status).toBe(400);
        expect(none.body.errors[0].field).toBe('roleIds');

        const bad = await api(admin, 'POST', '/api/admin/sysuser/addSysUser', {
          body: {
            username: `spec${unique()}`,
            nickname: 'Spec user',
            password: 'Canal-2026-spec',
            orgId,
            roleId: 'abc',
          },
        });
        expect(bad.status).toBe(400);
        expect(bad.body.errors[0].field).toBe('roleId');

        // Still strict: a name neither the spec nor the console uses is refused.
        const unknown = await api(admin, 'PUT', '/api/admin/sysuser/updateSysUser', {
          body: { id: both.id, roleCode: 'ROLE_ADMIN' },
        });
        expect(unknown.status).toBe(400);
        expect(unknown.body.errors[0].field).toBe('roleCode');
      },
    );

    it.skipIf(!available)('authorizeRoleToUser takes roleId as well as roleIds', async () => {
      const user = await newUser({ roleIds: [operatorRole] });
      await data(admin, 'POST', '/api/admin/sysuser/authorizeRoleToUser', {
        body: { userId: user.id, roleId: adminRole },
      });
      const held = await data(admin, 'GET', '/api/admin/sysrole/queryRoleName', {
        query: { userId: user.id },
      });
      expect(held.map((role: { id: string }) => role.id)).toEqual([adminRole]);

      await data(admin, 'POST', '/api/admin/sysuser/authorizeRoleToUser', {
        body: { userId: user.id, roleIds: [operatorRole, adminRole] },
      });
      const disagree = await api(admin, 'POST', '/api/admin/sysuser/authorizeRoleToUser', {
        body: { userId: user.id, roleId: adminRole, roleIds: [operatorRole] },
      });
      expect(disagree.status).toBe(400);
      expect(disagree.body.errors[0].field).toBe('roleId');
      const neither = await api(admin, 'POST', '/api/admin/sysuser/authorizeRoleToUser', {
        body: { userId: user.id },
      });
      expect(neither.status).toBe(400);
      expect(neither.body.errors[0].field).toBe('roleIds');
    });
  });

  describe('menus and roles: the spec parameters', () => {
    it.skipIf(!available)(
      'queryMenuButtonCheckbox without parameters answers every menu’s buttons',
      async () => {
        const all = await data(admin, 'GET', '/api/admin/sysmenu/queryMenuButtonCheckbox');
        const menuCodes = new Set(all.map((button: { menuCode: string }) => button.menuCode));
        expect(menuCodes.size).toBeGreaterThan(3);
        expect(menuCodes).toContain('sysuser');
        const userMenu = all.find((button: { menuCode: string }) => button.menuCode === 'sysuser');
        const one = await data(admin, 'GET', '/api/admin/sysmenu/queryMenuButtonCheckbox', {
          query: { menuId: userMenu.menuId },
        });
        expect(one.length).toBeGreaterThan(0);
        expect(one.every((button: { menuCode: string }) => button.menuCode === 'sysuser')).toBe(
          true,
        );
        expect(one.length).toBeLessThan(all.length);
      },
    );

    it.skipIf(!available)(
      'queryCheckedMenuButton by menuCode alone: the caller’s active role; with roleId that role',
      async () => {
        // The administrator holds every button of a menu.
        const buttons = await data(admin, 'GET', '/api/admin/sysmenu/queryMenuButtonCheckbox');
        const userButtons = buttons.filter(
          (button: { menuCode: string }) => button.menuCode === 'sysuser',
        );
        const mine = await data(admin, 'GET', '/api/admin/sysmenu/queryCheckedMenuButton', {
          query: { menuCode: 'sysuser' },
        });
        expect([...mine].sort()).toEqual(userButtons.map((b: { id: string }) => b.id).sort());

        // A role of its own, granted one button of the menu and the call itself.
        const role = await data(admin, 'POST', '/api/admin/sysrole/addSysRole', {
          body: { roleCode: `ROLE_B${unique()}`.toUpperCase(), roleName: 'Buttons' },
        });
        await data(admin, 'POST', '/api/admin/sysmenu/authorizeMenuButtonToRole', {
          body: { roleId: role.id, menuId: userButtons[0].menuId, buttonIds: [userButtons[0].id] },
        });
        const url = await data(admin, 'GET', '/api/admin/sysurl/querySysUrl', {
          query: { url: '/api/admin/sysmenu/queryCheckedMenuButton' },
        });
        await data(admin, 'POST', '/api/admin/sysurl/authorizeUrlToRole', {
          body: {
            roleId: role.id,
            urlIds: url.list
              .filter(
                (row: { url: string }) => row.url === '/api/admin/sysmenu/queryCheckedMenuButton',
              )
              .map((row: { id: string }) => row.id),
          },
        });
        const user = await newUser({ roleIds: [role.id] });
        const token = (await signIn(server, 'demo', user.username, 'Canal-2026-spec')).access_token;
        expect(
          await data(token, 'GET', '/api/admin/sysmenu/queryCheckedMenuButton', {
            query: { menuCode: 'sysuser' },
          }),
        ).toEqual([userButtons[0].id]);
        // The role being authorised, named by roleId, as the console asks.
        expect(
          await data(admin, 'GET', '/api/admin/sysmenu/queryCheckedMenuButton', {
            query: { menuCode: 'sysuser', roleId: role.id },
          }),
        ).toEqual([userButtons[0].id]);
        const noCode = await api(admin, 'GET', '/api/admin/sysmenu/queryCheckedMenuButton');
        expect(noCode.status).toBe(400);
        expect(noCode.body.errors[0].field).toBe('menuCode');
      },
    );

    it.skipIf(!available)(
      'queryRoleName honours postCode: the roles of the users holding the post',
      async () => {
        const post = await data(admin, 'POST', '/api/admin/syspost/addSysPost', {
          body: { postCode: `P${unique()}`, postName: 'Gate keeper', postSequence: 1 },
        });
        const keeper = await newUser({ roleIds: [operatorRole] });
        await data(admin, 'POST', '/api/admin/sysuserpost/addSysUserPost', {
          body: { userId: keeper.id, postId: post.id },
        });
        const ids = (roles: Array<{ id: string }>) => roles.map((role) => role.id);

        const ofPost = await data(admin, 'GET', '/api/admin/sysrole/queryRoleName', {
          query: { postCode: post.postCode },
        });
        expect(ids(ofPost)).toEqual([operatorRole]);
        const notOfPost = await data(admin, 'GET', '/api/admin/sysrole/queryRoleName', {
          query: { postCode: post.postCode, assign: 'false' },
        });
        expect(ids(notOfPost)).toContain(adminRole);
        expect(ids(notOfPost)).not.toContain(operatorRole);

        // With userId too: that user's roles when they hold the post, none when they do not.
        const keeperInPost = await data(admin, 'GET', '/api/admin/sysrole/queryRoleName', {
          query: { userId: keeper.id, postCode: post.postCode, assign: 'true' },
        });
        expect(ids(keeperInPost)).toEqual([operatorRole]);
        const adminInPost = await data(admin, 'GET', '/api/admin/sysrole/queryRoleName', {
          query: { userId: adminId, postCode: post.postCode, assign: 'true' },
        });
        expect(adminInPost).toEqual([]);
        // userId alone still answers that user's roles.
        const adminRoles = await data(admin, 'GET', '/api/admin/sysrole/queryRoleName', {
          query: { userId: adminId },
        });
        expect(ids(adminRoles)).toContain(adminRole);

        const neither = await api(admin, 'GET', '/api/admin/sysrole/queryRoleName');
        expect(neither.status).toBe(400);
        expect(neither.body.errors[0].field).toBe('userId');
      },
    );
  });

  describe('notifications: type notice', () => {
    it.skipIf(!available)(
      'a notice is added and answered as notice, listed by the bell as a notification',
      async () => {
        const types = await data(
          admin,
          'GET',
          '/api/notification/notification/queryNotificationType',
        );
        expect(types.map((type: { dictValue: string }) => type.dictValue).sort()).toEqual([
          'message',
          'notice',
        ]);
        const before = await data(
          admin,
          'GET',
          '/api/notification/notification/queryHeadNotification',
        );

        const title = `Canal 3 closes ${unique()}`;
        const added = await data(admin, 'POST', '/api/notification/notification/addNotification', {
          body: { title, content: '<p>Gate 4</p>', type: 'notice', priority: 'normal' },
        });
        expect(added.type).toBe('notice');
        const found = await data(admin, 'GET', '/api/notification/notification/queryNotification', {
          query: { type: 'notice', title },
        });
        expect(found.list.map((row: { id: string }) => row.id)).toEqual([added.id]);

        const head = await data(
          admin,
          'GET',
          '/api/notification/notification/queryHeadNotification',
        );
        expect(head.unread.notification).toBe(before.unread.notification + 1);
        expect(head.list.find((item: { id: string }) => item.id === added.id)).toMatchObject({
          type: 'notification',
        });
        const mine = await data(
          admin,
          'GET',
          '/api/notification/notification/queryMyNotification',
          { query: { type: 'notification', pageSize: '100' } },
        );
        expect(mine.list.map((item: { id: string }) => item.id)).toContain(added.id);

        // The console's former value still works and means the same.
        const former = await data(admin, 'POST', '/api/notification/notification/addNotification', {
          body: {
            title: `Former ${unique()}`,
            content: '<p>x</p>',
            type: 'notification',
            priority: 'normal',
          },
        });
        expect(former.type).toBe('notice');
        const changed = await data(
          admin,
          'PUT',
          '/api/notification/notification/updateNotification',
          { body: { id: former.id, type: 'message' } },
        );
        expect(changed.type).toBe('message');

        const bogus = await api(admin, 'POST', '/api/notification/notification/addNotification', {
          body: { title: 'x', content: '<p>x</p>', type: 'bulletin', priority: 'normal' },
        });
        expect(bogus.status).toBe(400);
        expect(bogus.body.errors[0].field).toBe('type');
      },
    );
  });

  describe('app clients: clientSecret', () => {
    const basic = (id: string, secret: string) =>
      `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
    /** Whether the token endpoint takes the client's credentials (the grant itself fails). */
    const authenticates = async (clientId: string, secret: string) => {
      const answer = await requestToken(
        server,
        { grant_type: 'refresh_token', refresh_token: 'not-a-token', client_id: clientId },
        { authorization: basic(clientId, secret) },
      );
      return answer.body.error !== 'invalid_client';
    };
    const client = (clientId: string, extra: Record<string, unknown> = {}) => ({
      clientId,
      authorizedGrantTypes: ['refresh_token'],
      scope: ['api'],
      accessTokenValidity: 600,
      refreshTokenValidity: 3600,
      ...extra,
    });

    it.skipIf(!available)(
      'add and update take a secret, stored hashed and never answered',
      async () => {
        const clientId = `spec-${unique()}`;
        const secret = `own-secret-${crypto.randomBytes(8).toString('hex')}`;
        const added = await data(platform, 'POST', '/api/uaa/appclient/addAppClient', {
          body: client(clientId, { clientSecret: secret }),
        });
        expect(JSON.stringify(added)).not.toContain(secret);
        expect(added).not.toHaveProperty('clientSecret');
        const stored = await server.db.system((sql) =>
          sql.query<{ client_secret_hash: string }>(
            'SELECT client_secret_hash FROM oauth_client WHERE client_id = $1',
            [clientId],
          ),
        );
        expect(stored.rows[0]!.client_secret_hash).not.toBe(secret);
        // A chosen secret may be guessable: it is stored like a password (argon2id), not SHA-256.
        expect(stored.rows[0]!.client_secret_hash).toMatch(/^\$argon2id\$/);
        expect(await authenticates(clientId, secret)).toBe(true);
        expect(await authenticates(clientId, `${secret}x`)).toBe(false);

        // Left out, a secret is generated and shown once, as before.
        const otherId = `spec-${unique()}`;
        const generated = await data(platform, 'POST', '/api/uaa/appclient/addAppClient', {
          body: client(otherId),
        });
        expect(generated.clientSecret).toMatch(/^\S{16,}$/);
        const listed = await data(platform, 'GET', '/api/uaa/appclient/queryAppClient', {
          query: { clientId: otherId },
        });
        expect(JSON.stringify(listed)).not.toContain(generated.clientSecret);

        // A new secret on update replaces the old one (a client not used yet, so not cached).
        const rotated = `rotated-secret-${crypto.randomBytes(8).toString('hex')}`;
        const updated = await data(platform, 'PUT', '/api/uaa/appclient/updateAppClient', {
          body: { id: generated.id, clientSecret: rotated },
        });
        expect(JSON.stringify(updated)).not.toContain(rotated);
        expect(await authenticates(otherId, rotated)).toBe(true);
        expect(await authenticates(otherId, generated.clientSecret)).toBe(false);

        // An update without a secret keeps it.
        const unchanged = `spec-${unique()}`;
        const third = await data(platform, 'POST', '/api/uaa/appclient/addAppClient', {
          body: client(unchanged, { clientSecret: secret }),
        });
        await data(platform, 'PUT', '/api/uaa/appclient/updateAppClient', {
          body: { id: third.id, accessTokenValidity: 900, clientSecret: null },
        });
        expect(await authenticates(unchanged, secret)).toBe(true);
      },
    );

    it.skipIf(!available)(
      'a short secret is a translated 400 naming clientSecret; the console’s own client keeps its secret',
      async () => {
        const weak = await api(platform, 'POST', '/api/uaa/appclient/addAppClient', {
          body: client(`spec-${unique()}`, { clientSecret: 'short' }),
          lang: 'zh',
        });
        expect(weak.status).toBe(400);
        expect(weak.body.errors[0].field).toBe('clientSecret');
        expect(weak.body.message).toMatch(/[\u3400-\u9fff]/);
        const long = await api(platform, 'POST', '/api/uaa/appclient/addAppClient', {
          body: client(`spec-${unique()}`, { clientSecret: 'x'.repeat(129) }),
        });
        expect(long.status).toBe(400);
        expect(long.body.errors[0].field).toBe('clientSecret');

        const browser = await data(platform, 'GET', '/api/uaa/appclient/queryAppClient', {
          query: { clientId: 'browser' },
        });
        const refused = await api(platform, 'PUT', '/api/uaa/appclient/updateAppClient', {
          body: { id: browser.list[0].id, clientSecret: 'a-new-browser-secret-2026' },
        });
        expect(refused.status).toBe(409);
        expect(await authenticates('browser', 'browser')).toBe(true);
      },
    );
  });

  describe('tenants: start and end time, no initial administrator', () => {
    it.skipIf(!available)(
      'a tenant is added without an administrator, with times in the spec’s format',
      async () => {
        const tenantCode = `spec${unique()}`;
        const tenant = await data(platform, 'POST', '/api/admin/systenant/addSysTenant', {
          body: {
            tenantCode,
            tenantName: 'Spec district',
            domain: `${tenantCode}.example`,
            startTime: '2026-01-01 00:00:00',
            endTime: '2036-01-01 08:30:00',
            contact: 'Li Wei',
            email: `office@${tenantCode}.example`,
            tel: '+86 951 1234567',
          },
        });
        // A time without an offset is the server's local time.
        expect(tenant.startTime).toBe(new Date(2026, 0, 1, 0, 0, 0).toISOString());
        expect(tenant.endTime).toBe(new Date(2036, 0, 1, 8, 30, 0).toISOString());
        const users = await server.db.system((sql) =>
          sql.query<{ n: number }>('SELECT count(*)::int AS n FROM sys_user WHERE tenant_id = $1', [
            tenant.id,
          ]),
        );
        expect(users.rows[0]!.n).toBe(0);

        const updated = await data(platform, 'PUT', '/api/admin/systenant/updateSysTenant', {
          body: { id: tenant.id, endTime: '2037-06-30 23:59:59' },
        });
        expect(updated.endTime).toBe(new Date(2037, 5, 30, 23, 59, 59).toISOString());

        const impossible = await api(platform, 'PUT', '/api/admin/systenant/updateSysTenant', {
          body: { id: tenant.id, endTime: '2037-02-30 00:00:00' },
        });
        expect(impossible.status).toBe(400);
        expect(impossible.body.errors[0].field).toBe('endTime');

        const reversed = await api(platform, 'POST', '/api/admin/systenant/addSysTenant', {
          body: {
            tenantCode: `spec${unique()}`,
            tenantName: 'Reversed',
            startTime: '2030-01-01 00:00:00',
            endTime: '2029-01-01 00:00:00',
          },
        });
        expect(reversed.status).toBe(400);
        expect(reversed.body.errors[0].field).toBe('endTime');

        const half = await api(platform, 'POST', '/api/admin/systenant/addSysTenant', {
          body: { tenantCode: `spec${unique()}`, tenantName: 'Half', adminUsername: 'chief' },
        });
        expect(half.status).toBe(400);
        expect(half.body.errors[0].field).toBe('adminPassword');
      },
    );

    it.skipIf(!available)(
      'addSysTenantUser makes the first user of a tenant without one its administrator',
      async () => {
        const tenantCode = `spec${unique()}`;
        await data(platform, 'POST', '/api/admin/systenant/addSysTenant', {
          body: { tenantCode, tenantName: 'Spec district' },
        });
        const chief = `chief${unique()}`;
        const clerk = `clerk${unique()}`;
        await addUser(server, 'demo', chief, 'Chief-2026-spec');
        await addUser(server, 'demo', clerk, 'Clerk-2026-spec');
        const idOf = async (username: string) =>
          (await data(admin, 'GET', '/api/admin/sysuser/querySysUser', { query: { username } }))
            .list[0].id as string;

        for (const username of [chief, clerk])
          await data(platform, 'POST', '/api/admin/sysuser/addSysTenantUser', {
            query: { tenantCode, userId: await idOf(username) },
          });

        const chiefToken = (await signIn(server, tenantCode, chief, 'Chief-2026-spec'))
          .access_token;
        expect((await data(chiefToken, 'GET', '/api/uaa/users/getSysUser')).roles).toEqual([
          'ROLE_ADMIN',
        ]);
        // As administrator they manage their tenant's users at once.
        const users = await data(chiefToken, 'GET', '/api/admin/sysuser/querySysUser');
        expect(users.list.map((row: { username: string }) => row.username).sort()).toEqual(
          [chief, clerk].sort(),
        );
        const clerkToken = (await signIn(server, tenantCode, clerk, 'Clerk-2026-spec'))
          .access_token;
        expect((await data(clerkToken, 'GET', '/api/uaa/users/getSysUser')).roles).toEqual([
          'ROLE_OPERATOR',
        ]);
      },
    );
  });
});
