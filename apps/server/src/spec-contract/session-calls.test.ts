import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BROWSER_BASIC,
  freshIp,
  lastCode,
  lastOutboxMessage,
  signIn,
} from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { specClient, type SpecClient } from '@shuili/test-support/spec-client';

/**
 * Spec §7 "Session and login", call by call, in the spec's own words: a client written from the
 * spec alone (parameter names, query/form/body as it says) gets the spec's meaning.
 */
describe.each(BACKENDS)('spec §7 session and login calls on $backend', ({ backend, available }) => {
  let server: TestServer;
  let admin: SpecClient;
  let anonymous: SpecClient;
  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    admin = specClient(server, (await signIn(server, 'demo', 'admin', 'admin123')).access_token);
    anonymous = specClient(server);
  });
  afterAll(async () => server?.close());

  it.skipIf(!available)(
    'POST /api/uaa/oauth/token: query parameters, form type, Basic client; account and mobile logins',
    async () => {
      const account = await anonymous.send(
        'POST',
        '/api/uaa/oauth/token?' +
          new URLSearchParams({
            grant_type: 'password',
            type: 'account',
            scope: 'ui',
            client_id: 'browser',
            tenantCode: 'demo',
            username: 'operator',
            password: 'operator123',
          }).toString(),
        { params: {} },
        { authorization: BROWSER_BASIC, 'x-forwarded-for': freshIp() },
      );
      expect(account.status).toBe(200);
      expect(account.body.access_token).toEqual(expect.any(String));

      // Mobile login: the SMS code of getSmsCaptcha (params: mobile), then grant_type mobile.
      const mobile = '+8613987650001';
      await server.db.system((sql) =>
        sql.query(
          "UPDATE sys_user SET mobile = $1 WHERE username = 'operator' AND tenant_id = (SELECT id FROM tenant WHERE tenant_code = 'demo')",
          [mobile],
        ),
      );
      const sent = await anonymous.send('GET', '/api/account/captcha/getSmsCaptcha', {
        params: { mobile, tenantCode: 'demo' },
      });
      expect(sent.status).toBe(200);
      const byMobile = await anonymous.send(
        'POST',
        '/api/uaa/oauth/token?' +
          new URLSearchParams({
            grant_type: 'mobile',
            type: 'mobile',
            scope: 'ui',
            client_id: 'browser',
            tenantCode: 'demo',
            mobile,
            smsCaptcha: await lastCode(server, mobile),
          }).toString(),
        { params: {} },
        { authorization: BROWSER_BASIC, 'x-forwarded-for': freshIp() },
      );
      expect(byMobile.status).toBe(200);
      expect(byMobile.body.access_token).toEqual(expect.any(String));
    },
  );

  it.skipIf(!available)(
    'GET /api/uaa/users/getSysUser answers the user data the spec lists',
    async () => {
      const user = await admin.data('GET', '/api/uaa/users/getSysUser');
      for (const field of [
        'username',
        'nickname',
        'roles',
        'avatar',
        'tenantCode',
        'tenantName',
        'id',
        'phone',
        'geographic',
        'address',
        'profile',
      ])
        expect(user).toHaveProperty(field);
      expect(user.roles).toContain('ROLE_ADMIN');
    },
  );

  it.skipIf(!available)(
    'POST queryCurrentAuthority with params (username) answers menu and menuButton',
    async () => {
      const authority = await admin.data(
        'POST',
        '/api/account/sysuserdetail/queryCurrentAuthority',
        {
          params: { username: 'admin' },
        },
      );
      expect(authority.menu.length).toBeGreaterThan(0);
      expect(authority.menuButton.length).toBeGreaterThan(0);
      // The form's username is read, not ignored: another user's authority is not the caller's.
      const other = await admin.send('POST', '/api/account/sysuserdetail/queryCurrentAuthority', {
        params: { username: 'operator' },
      });
      expect(other.status).toBe(403);
    },
  );

  it.skipIf(!available)(
    'GET /api/admin/sysuser/queryTenantUser with userInfo lists its tenants',
    async () => {
      const tenants = await anonymous.data('GET', '/api/admin/sysuser/queryTenantUser', {
        params: { userInfo: 'admin' },
      });
      expect(tenants.map((tenant: { tenantCode: string }) => tenant.tenantCode)).toEqual(
        expect.arrayContaining(['demo', 'acme']),
      );
    },
  );

  it.skipIf(!available)(
    'POST compareCaptcha with params (form): a right code true, a wrong one 400',
    async () => {
      const mobile = '+8613987650002';
      await anonymous.data('GET', '/api/account/captcha/getSmsCaptcha', { params: { mobile } });
      const code = await lastCode(server, mobile);
      const right = await anonymous.send('POST', '/api/account/sysuserdetail/compareCaptcha', {
        params: { mobile, smsCaptcha: code },
      });
      expect(right.status).toBe(200);
      expect(right.body.data).toBe(true);
      const wrong = await anonymous.send('POST', '/api/account/sysuserdetail/compareCaptcha', {
        params: { mobile, smsCaptcha: code === '000000' ? '111111' : '000000' },
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body.errors?.[0]?.field).toBe('smsCaptcha');
    },
  );

  it.skipIf(!available)(
    'POST /api/admin/sysuser/registerNewSession is answered for a signed-in user',
    async () => {
      const answer = await admin.send('POST', '/api/admin/sysuser/registerNewSession');
      expect(answer.status).toBe(200);
    },
  );

  it.skipIf(!available)(
    'POST registerAccountInitial with a body creates a tenant whose administrator can sign in',
    async () => {
      const mobile = '+8613987650003';
      await anonymous.data('GET', '/api/account/captcha/getSmsCaptcha', { params: { mobile } });
      const registered = await anonymous.data('POST', '/api/admin/sysuser/registerAccountInitial', {
        data: {
          tenantName: 'Spec Canal District',
          username: 'specowner',
          password: 'Canal-2026-spec',
          email: 'owner@spec-canal.example',
          mobile,
          smsCaptcha: await lastCode(server, mobile),
        },
      });
      const token = await signIn(server, registered.tenantCode, 'specowner', 'Canal-2026-spec');
      expect(token.access_token).toEqual(expect.any(String));
    },
  );

  it.skipIf(!available)(
    'POST retrievePassword with only email and charCaptcha sends a one-time reset link',
    async () => {
      const email = 'operator@demo.shuili.local';
      await anonymous.data('GET', '/api/account/captcha/getEmailCaptcha', {
        params: { tenantCode: 'demo', email },
      });
      const answer = await anonymous.send('POST', '/api/account/sysuserdetail/retrievePassword', {
        params: { email, charCaptcha: await lastCode(server, email) },
      });
      expect(answer.status).toBe(200);
      expect(await lastOutboxMessage(server, email)).toMatch(/https?:\/\/\S+/);
    },
  );

  it.skipIf(!available)(
    'zone ids fetched by sysUserId: an array of zones with id and children',
    async () => {
      const me = await admin.data('GET', '/api/uaa/users/getSysUser');
      const zones = await admin.data('GET', '/api/admin/syszone/queryAssignedZoneIds', {
        params: { sysUserId: me.id },
      });
      expect(Array.isArray(zones)).toBe(true);
      for (const zone of zones) {
        expect(zone).toHaveProperty('id');
        expect(Array.isArray(zone.children)).toBe(true);
      }
    },
  );

  it.skipIf(!available)(
    'the organisation list with currentPage 1 and pageSize 10000 answers data.list',
    async () => {
      const orgs = await admin.data('GET', '/api/account/sysuserdetail/queryCurrentOrgs', {
        params: { currentPage: '1', pageSize: '10000' },
      });
      expect(orgs.list.length).toBeGreaterThan(0);
    },
  );

  it.skipIf(!available)(
    'switch menu: username plus optional parentId, postCode and userId as params answers the menu',
    async () => {
      const me = await admin.data('GET', '/api/uaa/users/getSysUser');
      const whole = await admin.data('POST', '/api/account/sysuserdetail/switchMenu', {
        params: { username: 'admin' },
      });
      expect(whole.menu.length).toBeGreaterThan(1);
      const parents = await admin.data('GET', '/api/account/sysuserdetail/queryParentMenu', {
        params: { userId: me.id },
      });
      const narrowed = await admin.data('POST', '/api/account/sysuserdetail/switchMenu', {
        params: { username: 'admin', userId: me.id, parentId: parents[0].id },
      });
      expect(narrowed.menu.map((menu: { id: string }) => menu.id)).toEqual([parents[0].id]);
      const posts = await admin.data('GET', '/api/admin/sysuserpost/queryUserPostOptions', {
        params: { userId: me.id },
      });
      expect(Array.isArray(posts)).toBe(true);
    },
  );

  it.skipIf(!available)('the notification list: items with a type', async () => {
    const head = await admin.data('GET', '/api/notification/notification/queryHeadNotification');
    expect(head).toBeDefined();
  });

  it.skipIf(!available)('logout ends the session: the token no longer works', async () => {
    const token = (await signIn(server, 'demo', 'operator', 'operator123')).access_token;
    const operator = specClient(server, token);
    expect((await operator.send('POST', '/api/uaa/oauth/logout')).status).toBe(200);
    expect((await operator.send('GET', '/api/uaa/users/getSysUser')).status).toBe(401);
  });
});
