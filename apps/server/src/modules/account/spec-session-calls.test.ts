import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, call, freshIp, lastCode, signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';

/**
 * Spec §7 "Session and login" in the spec's own forms (issue 16): the switch-menu call and the
 * parent-menu and post options by user id, the zone fetch by sysUserId, compareCaptcha with form
 * params. The console's richer forms keep working beside them.
 */
describe.each(BACKENDS)('spec §7 session calls on $backend', ({ backend, available }) => {
  let server: TestServer;
  let admin: string;
  let operator: string;
  let adminId: string;
  let operatorId: string;
  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    admin = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
    operator = (await signIn(server, 'demo', 'operator', 'operator123')).access_token;
    const me = async (token: string) =>
      (await call(server, 'GET', '/api/uaa/users/getSysUser', { token })).body.data.id as string;
    adminId = await me(admin);
    operatorId = await me(operator);
  });
  afterAll(async () => server?.close());

  /** A POST whose params travel as an application/x-www-form-urlencoded body. */
  const form = (path: string, params: Record<string, string>, token?: string) =>
    call(server, 'POST', path, {
      token,
      body: new URLSearchParams(params).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  const switchMenu = '/api/account/sysuserdetail/switchMenu';
  const menuIds = (answer: { body: { data: { menu: { id: string }[] } } }) =>
    answer.body.data.menu.map((menu) => menu.id);
  const ownAuthority = async (token: string) =>
    (await call(server, 'POST', '/api/account/sysuserdetail/queryCurrentAuthority', { token })).body
      .data;

  describe('switch menu, parent-menu and post options', () => {
    it.skipIf(!available)(
      'takes username, parentId and postCode as query or form params, and the console’s JSON',
      async () => {
        const whole = await ownAuthority(operator);
        expect(whole.menu.length).toBeGreaterThan(1);
        const parentId = whole.menu[1].id as string;

        const byQuery = await call(server, 'POST', switchMenu, {
          token: operator,
          query: { username: 'operator', parentId },
        });
        expect(byQuery.status).toBe(200);
        expect(menuIds(byQuery)).toEqual([parentId]);

        const byForm = await form(switchMenu, { username: 'operator', parentId }, operator);
        expect(byForm.status).toBe(200);
        expect(menuIds(byForm)).toEqual([parentId]);
        // A blank optional param is no param: the whole menu.
        const blank = await form(switchMenu, { username: 'operator', parentId: '' }, operator);
        expect(blank.body.data).toEqual(whole);

        // The console's form: JSON with nulls.
        const json = await call(server, 'POST', switchMenu, {
          token: operator,
          body: { parentId, postCode: null },
        });
        expect(menuIds(json)).toEqual([parentId]);
        const cleared = await call(server, 'POST', switchMenu, {
          token: operator,
          body: { parentId: null, postCode: null },
        });
        expect(cleared.body.data).toEqual(whole);
        // Bodies stay strict: an unknown field is refused, named.
        const unknown = await call(server, 'POST', switchMenu, {
          token: operator,
          body: { parentId, menuId: parentId },
        });
        expect(unknown.status).toBe(400);
        expect(unknown.body.errors[0].field).toBe('menuId');
        const badId = await form(switchMenu, { parentId: 'x' }, operator);
        expect(badId.status).toBe(400);
        expect(badId.body.errors[0].field).toBe('parentId');
      },
    );

    it.skipIf(!available)(
      'refuses a user who is not an administrator naming anyone but themselves (403)',
      async () => {
        const own = await form(switchMenu, { username: 'Operator', userId: operatorId }, operator);
        expect(own.status).toBe(200);
        const others: Record<string, string>[] = [
          { username: 'admin' },
          { userId: adminId },
          { userId: '999999' },
        ];
        for (const params of others) {
          const answer = await form(switchMenu, params, operator);
          expect(answer.status).toBe(403);
          expect(answer.body.message).toBe('Only an administrator may ask about another user');
        }
        for (const path of [
          '/api/account/sysuserdetail/queryParentMenu',
          '/api/admin/sysuserpost/queryUserPostOptions',
        ]) {
          expect(
            (await call(server, 'GET', path, { token: operator, query: { userId: operatorId } }))
              .status,
          ).toBe(200);
          expect(
            (await call(server, 'GET', path, { token: operator, query: { userId: adminId } }))
              .status,
          ).toBe(403);
        }
      },
    );

    it.skipIf(!available)(
      "gives an administrator another user's menu, parent menus and posts (their first enabled role)",
      async () => {
        const operatorMenu = await ownAuthority(operator);
        const adminMenu = await ownAuthority(admin);
        expect(operatorMenu.menu.length).toBeLessThan(adminMenu.menu.length);

        const byName = await form(switchMenu, { username: 'operator' }, admin);
        expect(byName.status).toBe(200);
        expect(byName.body.data).toEqual(operatorMenu);
        const byId = await call(server, 'POST', switchMenu, {
          token: admin,
          query: { userId: operatorId },
        });
        expect(byId.body.data).toEqual(operatorMenu);
        // Naming oneself is one's own active role, as before.
        expect((await form(switchMenu, { username: 'admin' }, admin)).body.data).toEqual(adminMenu);

        const parents = await call(server, 'GET', '/api/account/sysuserdetail/queryParentMenu', {
          token: admin,
          query: { userId: operatorId },
        });
        expect(parents.body.data.map((menu: { id: string }) => menu.id)).toEqual(
          operatorMenu.menu.map((menu: { id: string }) => menu.id),
        );

        // The operator's post, not the admin's: options and the switch check it for the operator.
        const post = await call(server, 'POST', '/api/admin/syspost/addSysPost', {
          token: admin,
          body: { postCode: 'GATE', postName: 'Gate keeper', postSequence: 1 },
        });
        expect(post.status).toBe(200);
        await call(server, 'POST', '/api/admin/sysuserpost/addSysUserPost', {
          token: admin,
          body: { userId: operatorId, postId: post.body.data.id },
        });
        const posts = await call(server, 'GET', '/api/admin/sysuserpost/queryUserPostOptions', {
          token: admin,
          query: { userId: operatorId },
        });
        expect(posts.body.data.map((option: { postCode: string }) => option.postCode)).toEqual([
          'GATE',
        ]);
        const ownPosts = await call(server, 'GET', '/api/admin/sysuserpost/queryUserPostOptions', {
          token: admin,
        });
        expect(ownPosts.body.data).toEqual([]);
        const inPost = await form(
          switchMenu,
          { username: 'operator', postCode: 'GATE', parentId: operatorMenu.menu[0].id },
          admin,
        );
        expect(menuIds(inPost)).toEqual([operatorMenu.menu[0].id]);
        const notHisPost = await form(switchMenu, { postCode: 'GATE' }, admin);
        expect(notHisPost.status).toBe(400);
        expect(notHisPost.body.errors[0].field).toBe('postCode');
      },
    );

    it.skipIf(!available)(
      "answers 400 naming the field for a user that is not in the administrator's tenant",
      async () => {
        const unknownId = await form(switchMenu, { userId: '999999' }, admin);
        expect(unknownId.status).toBe(400);
        expect(unknownId.body.errors).toEqual([
          { field: 'userId', message: 'User: the selected record does not exist' },
        ]);
        const unknownName = await form(switchMenu, { username: 'ghost' }, admin);
        expect(unknownName.body.errors[0].field).toBe('username');
        const differ = await form(switchMenu, { username: 'operator', userId: adminId }, admin);
        expect(differ.status).toBe(400);
        expect(differ.body.errors[0].field).toBe('username');
        // Another tenant's administrator cannot reach demo's users.
        const acme = (await signIn(server, 'acme', 'admin', 'admin123')).access_token;
        const across = await form(switchMenu, { userId: operatorId }, acme);
        expect(across.status).toBe(400);
        expect(across.body.errors[0].field).toBe('userId');
        const acrossPosts = await call(
          server,
          'GET',
          '/api/admin/sysuserpost/queryUserPostOptions',
          { token: acme, query: { userId: operatorId } },
        );
        expect(acrossPosts.status).toBe(400);
      },
    );
  });

  describe('zones by sysUserId', () => {
    it.skipIf(!available)(
      "answers the spec's tree of zones by sysUserId and the console's id list by userId",
      async () => {
        const addZone = async (zoneCode: string, zoneParent?: string) => {
          const answer = await call(server, 'POST', '/api/admin/syszone/addZone', {
            token: admin,
            body: { zoneName: zoneCode, zoneCode, zoneSequence: 1, zoneParent },
          });
          expect(answer.status).toBe(200);
          return answer.body.data.id as string;
        };
        const canal = await addZone('CANAL');
        const gate = await addZone('GATE1', canal);
        const field = await addZone('FIELD');
        const ditch = await addZone('DITCH', field);
        await addUser(server, 'demo', 'zoned', 'zoned-secret-1');
        const { rows } = await server.db.system((sql) =>
          sql.query<{ id: string }>("SELECT id::text AS id FROM sys_user WHERE username = 'zoned'"),
        );
        const userId = rows[0]!.id;
        const assigned = await form(
          '/api/admin/syszone/assignZone',
          { userId, zoneIds: [canal, gate, ditch].join(',') },
          admin,
        );
        expect(assigned.status).toBe(200);

        const tree = await call(server, 'GET', '/api/admin/syszone/queryAssignedZoneIds', {
          token: admin,
          query: { sysUserId: userId },
        });
        expect(tree.status).toBe(200);
        // Only assigned zones: the ditch is a root, its unassigned parent is left out.
        const shape = (nodes: { id: string; children: unknown[] }[]): unknown =>
          nodes.map((node) => ({
            id: node.id,
            children: shape(node.children as never),
          }));
        expect(shape(tree.body.data)).toEqual([
          { id: canal, children: [{ id: gate, children: [] }] },
          { id: ditch, children: [] },
        ]);
        expect(tree.body.data[0]).toMatchObject({ zoneCode: 'CANAL', zoneName: 'CANAL' });

        const list = await call(server, 'GET', '/api/admin/syszone/queryAssignedZoneIds', {
          token: admin,
          query: { userId },
        });
        expect([...list.body.data].sort()).toEqual([canal, gate, ditch].sort());

        const none = await call(server, 'GET', '/api/admin/syszone/queryAssignedZoneIds', {
          token: admin,
        });
        expect(none.status).toBe(400);
        expect(none.body.errors).toEqual([{ field: 'sysUserId', message: 'User is required' }]);
        const differ = await call(server, 'GET', '/api/admin/syszone/queryAssignedZoneIds', {
          token: admin,
          query: { sysUserId: userId, userId: adminId },
        });
        expect(differ.status).toBe(400);
        expect(differ.body.errors[0].field).toBe('sysUserId');
      },
    );
  });

  describe('compareCaptcha', () => {
    it.skipIf(!available)('takes mobile and smsCaptcha as form params', async () => {
      const mobile = '+8613766660001';
      await call(server, 'GET', '/api/account/captcha/getSmsCaptcha', {
        query: { mobile },
        ip: freshIp(),
      });
      const code = await lastCode(server, mobile);
      const compare = '/api/account/sysuserdetail/compareCaptcha';
      const wrong = await form(compare, {
        mobile,
        smsCaptcha: code === '000000' ? '111111' : '000000',
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body.errors[0].field).toBe('smsCaptcha');
      const right = await form(compare, { mobile, smsCaptcha: code });
      expect(right.body).toEqual({ code: 200, message: 'success', data: true });
      const missing = await form(compare, { mobile });
      expect(missing.status).toBe(400);
      expect(missing.body.errors[0].field).toBe('smsCaptcha');
    });
  });
});
