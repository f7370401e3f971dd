import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addUser as addTestUser,
  call,
  freshIp,
  requestToken,
  signIn,
} from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';

describe.each(BACKENDS)('sign-in on $backend', ({ backend, available }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (available) server = await startTestServer({ backend });
  });
  afterAll(async () => server?.close());

  const password = (tenantCode: string, username: string, secret: string, ip = freshIp()) =>
    requestToken(
      server,
      { grant_type: 'password', type: 'account', tenantCode, username, password: secret },
      { ip },
    );

  const addUser = (tenantCode: string, username: string, secret: string) =>
    addTestUser(server, tenantCode, username, secret);

  it.skipIf(!available)('signs admin of demo in with the OAuth answer of spec §7', async () => {
    const result = await password('demo', 'admin', 'admin123');
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({
      token_type: 'bearer',
      scope: 'ui',
      tenantCode: 'demo',
      expires_in: 900,
    });
    expect(result.body.access_token.split('.')).toHaveLength(3);
    expect(result.body.refresh_token.length).toBeGreaterThan(30);
    expect(result.headers.get('cache-control')).toBe('no-store');
    const cookie = result.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(
      /refresh_token=.+; Max-Age=\d+; Path=\/api\/uaa\/oauth; HttpOnly; SameSite=Strict/,
    );

    const me = await call(server, 'GET', '/api/uaa/users/getSysUser', {
      token: result.body.access_token,
    });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      code: 200,
      message: 'success',
      data: {
        username: 'admin',
        roles: ['ROLE_ADMIN'],
        activeRole: 'ROLE_ADMIN',
        tenantCode: 'demo',
        tenantName: 'Demo Irrigation District',
      },
    });
    expect(JSON.stringify(me.body)).not.toMatch(/password|hash/i);
  });

  it.skipIf(!available)(
    'signs in by e-mail or mobile as well as username, and names the tenant in the caller language',
    async () => {
      expect((await password('demo', 'ADMIN@demo.shuili.local', 'admin123')).status).toBe(200);
      expect((await password('demo', '+86 13800000001', 'admin123')).status).toBe(200);
      const token = (await signIn(server, 'demo', 'operator', 'operator123')).access_token;
      const me = await call(server, 'GET', '/api/uaa/users/getSysUser', { token, lang: 'tw' });
      expect(me.body.data).toMatchObject({
        username: 'operator',
        roles: ['ROLE_OPERATOR'],
        tenantName: '示範灌區',
      });
    },
  );

  it.skipIf(!available)(
    'refuses a wrong password, an unknown user and an unknown tenant with invalid_grant',
    async () => {
      const wrong = await password('demo', 'admin', 'not-the-password');
      expect(wrong.status).toBe(400);
      expect(wrong.body).toEqual({
        error: 'invalid_grant',
        error_description: 'Wrong tenant, username or password',
      });
      const nobody = await password('demo', 'nobody', 'whatever1');
      expect(nobody.body.error).toBe('invalid_grant');
      // An unknown tenant is not told apart from a wrong password (sign-in-guessing.test.ts).
      const noTenant = await password('atlantis', 'admin', 'admin123');
      expect(noTenant.status).toBe(400);
      expect(noTenant.body).toEqual(wrong.body);
    },
  );

  it.skipIf(!available)(
    'refuses a tenant outside its start and end time, and a disabled account',
    async () => {
      await server.db.system(async (sql) => {
        await sql.query(
          `INSERT INTO tenant (tenant_code, tenant_name, end_time) VALUES ('expired', 'Expired', now() - interval '1 day')`,
        );
        await sql.query(
          `INSERT INTO tenant (tenant_code, tenant_name, start_time) VALUES ('future', 'Future', now() + interval '1 day')`,
        );
      });
      await addUser('expired', 'someone', 'secret123');
      await addUser('future', 'someone', 'secret123');
      for (const tenantCode of ['expired', 'future']) {
        const result = await password(tenantCode, 'someone', 'secret123');
        expect(result.status).toBe(400);
        expect(result.body).toEqual({
          error: 'invalid_grant',
          error_description: 'This tenant is not active now: it is outside its service period',
        });
      }
      await addUser('demo', 'disabled-user', 'secret123');
      await server.db.system((sql) =>
        sql.query(`UPDATE sys_user SET status = 0 WHERE username = 'disabled-user'`),
      );
      expect((await password('demo', 'disabled-user', 'secret123')).body.error_description).toBe(
        'This account is disabled',
      );
    },
  );

  it.skipIf(!available)(
    'stops refreshing a session once its tenant leaves its service period',
    async () => {
      await server.db.system((sql) =>
        sql.query(`INSERT INTO tenant (tenant_code, tenant_name) VALUES ('ending', 'Ending')`),
      );
      await addUser('ending', 'someone', 'secret123');
      const token = await signIn(server, 'ending', 'someone', 'secret123');
      await server.db.system((sql) =>
        sql.query(`UPDATE tenant SET end_time = now() WHERE tenant_code = 'ending'`),
      );
      const refreshed = await requestToken(server, {
        grant_type: 'refresh_token',
        refresh_token: token.refresh_token,
      });
      expect(refreshed.status).toBe(400);
      expect(refreshed.body.error).toBe('invalid_grant');
    },
  );

  it.skipIf(!available)(
    'accepts the password grant from the first-party browser client only',
    async () => {
      await server.db.system((sql) =>
        sql.query(
          `INSERT INTO oauth_client (client_id, client_secret_hash, authorized_grant_types, scope, access_token_validity, refresh_token_validity)
         VALUES ('partner', encode(sha256('partner-secret'::bytea), 'hex'), '{password,refresh_token}', '{ui}', 900, 3600)`,
        ),
      );
      const result = await requestToken(
        server,
        {
          grant_type: 'password',
          client_id: 'partner',
          tenantCode: 'demo',
          username: 'admin',
          password: 'admin123',
        },
        { authorization: `Basic ${Buffer.from('partner:partner-secret').toString('base64')}` },
      );
      expect(result.status).toBe(400);
      expect(result.body).toMatchObject({
        error: 'unauthorized_client',
        error_description: 'This client may not use the grant password',
      });
    },
  );

  it.skipIf(!available)(
    'answers bad input with translated messages naming each field, never a 500',
    async () => {
      const missing = await requestToken(server, { grant_type: 'password' }, { ip: freshIp() });
      expect(missing.status).toBe(400);
      expect(missing.body.error).toBe('invalid_request');
      expect(missing.body.errors?.map((e) => e.field).sort()).toEqual([
        'password',
        'tenantCode',
        'username',
      ]);
      expect(missing.body.errors?.find((e) => e.field === 'username')?.message).toBe(
        'Username is required',
      );

      const short = await requestToken(
        server,
        { grant_type: 'password', tenantCode: 'demo', username: 'ab', password: '12345' },
        { ip: freshIp(), lang: 'zh' },
      );
      expect(short.body.errors).toEqual([
        { field: 'username', message: '用户名至少 3 个字符' },
        { field: 'password', message: '密码至少 6 个字符' },
      ]);
      const long = await requestToken(
        server,
        { grant_type: 'password', tenantCode: 'demo', username: 'admin', password: 'x'.repeat(32) },
        { ip: freshIp() },
      );
      expect(long.body.errors).toEqual([
        { field: 'password', message: 'Password must be at most 31 characters' },
      ]);

      const badTenant = await requestToken(
        server,
        {
          grant_type: 'password',
          tenantCode: 'DROP TABLE;',
          username: 'admin',
          password: 'admin123',
        },
        { ip: freshIp() },
      );
      expect(badTenant.status).toBe(400);
      expect(badTenant.body.errors?.[0]?.field).toBe('tenantCode');

      const noGrant = await requestToken(server, {}, { ip: freshIp() });
      expect(noGrant.body).toMatchObject({
        error: 'invalid_request',
        errors: [{ field: 'grant_type', message: 'Grant type is required' }],
      });
      const otherGrant = await requestToken(server, { grant_type: 'client_credentials' });
      expect(otherGrant.body.error).toBe('unsupported_grant_type');
      const badScope = await requestToken(server, {
        grant_type: 'password',
        tenantCode: 'demo',
        username: 'admin',
        password: 'admin123',
        scope: 'all',
      });
      expect(badScope.body.error).toBe('invalid_scope');
    },
  );

  it.skipIf(!available)(
    'keeps the password untrimmed and accepts parameters in a form body too',
    async () => {
      await addUser('demo', 'spacey', ' pass word ');
      expect((await password('demo', 'spacey', 'pass word')).status).toBe(400);
      const form = await fetch(`${server.url}/api/uaa/oauth/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from('browser:browser').toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
          'x-forwarded-for': freshIp(),
        },
        body: new URLSearchParams({
          grant_type: 'password',
          tenantCode: ' demo ',
          username: ' spacey ',
          password: ' pass word ',
        }),
      });
      expect(form.status).toBe(200);
    },
  );

  it.skipIf(!available)(
    'authenticates the client: no Basic header, a wrong secret or another client_id is invalid_client',
    async () => {
      const params = {
        grant_type: 'password',
        tenantCode: 'demo',
        username: 'admin',
        password: 'admin123',
      };
      for (const authorization of [
        null,
        `Basic ${Buffer.from('browser:wrong').toString('base64')}`,
        'Basic %%%',
        'Bearer x',
      ]) {
        const result = await requestToken(server, params, { authorization });
        expect(result.status).toBe(401);
        expect(result.body.error).toBe('invalid_client');
      }
      expect((await requestToken(server, { ...params, client_id: 'other' })).body.error).toBe(
        'invalid_client',
      );
    },
  );

  it.skipIf(!available)('throttles one address spraying many accounts', async () => {
    const ip = freshIp();
    let status = 0;
    for (let attempt = 0; attempt < 31 && status !== 429; attempt += 1) {
      status = (await password('demo', `spray-${attempt}`, 'wrong-password', ip)).status;
    }
    expect(status).toBe(429);
    expect((await password('demo', 'admin', 'admin123', ip)).status).toBe(429);
  });

  it.skipIf(!available)(
    'rotates refresh tokens and ends the session when a used one comes back',
    async () => {
      const first = await signIn(server, 'demo', 'admin', 'admin123');
      const second = await requestToken(server, {
        grant_type: 'refresh_token',
        refresh_token: first.refresh_token,
      });
      expect(second.status).toBe(200);
      expect(second.body.refresh_token).not.toBe(first.refresh_token);
      expect(second.body.jti).toBe(first.jti);
      // The refresh cookie alone works too (the browser's way).
      const third = await requestToken(
        server,
        { grant_type: 'refresh_token' },
        { cookie: `refresh_token=${second.body.refresh_token}` },
      );
      expect(third.status).toBe(200);
      expect(third.headers.get('set-cookie')).toMatch(/Max-Age=604800/);

      // Presented again right away it is a race (two tabs): refused, the session lives on.
      const racing = await requestToken(server, {
        grant_type: 'refresh_token',
        refresh_token: first.refresh_token,
      });
      expect(racing.body).toMatchObject({
        error: 'invalid_grant',
        error_description: 'The refresh token is invalid or has expired',
      });
      expect(
        (await call(server, 'GET', '/api/uaa/users/getSysUser', { token: third.body.access_token }))
          .status,
      ).toBe(200);

      // Presented after the grace period it means a copy exists: the session ends.
      await server.db.system((sql) =>
        sql.query(
          `UPDATE refresh_token SET used_at = now() - interval '5 minutes' WHERE session_id = $1 AND used_at IS NOT NULL`,
          [first.jti],
        ),
      );
      const reused = await requestToken(server, {
        grant_type: 'refresh_token',
        refresh_token: first.refresh_token,
      });
      expect(reused.status).toBe(400);
      expect(reused.body.error).toBe('invalid_grant');
      expect(reused.body.error_description).toMatch(/already used/);
      // The whole session is over: the newest tokens fail as well.
      expect(
        (
          await requestToken(server, {
            grant_type: 'refresh_token',
            refresh_token: third.body.refresh_token,
          })
        ).status,
      ).toBe(400);
      const me = await call(server, 'GET', '/api/uaa/users/getSysUser', {
        token: third.body.access_token,
      });
      expect(me.status).toBe(401);
      expect(me.body).toMatchObject({ code: 50012, error: 'invalid_token' });
      expect(
        (await requestToken(server, { grant_type: 'refresh_token', refresh_token: 'made-up' })).body
          .error,
      ).toBe('invalid_grant');
    },
  );

  it.skipIf(!available)(
    'two refreshes racing with one token: one wins, the session survives',
    async () => {
      const first = await signIn(server, 'demo', 'admin', 'admin123');
      const both = await Promise.all([
        requestToken(server, { grant_type: 'refresh_token', refresh_token: first.refresh_token }),
        requestToken(server, { grant_type: 'refresh_token', refresh_token: first.refresh_token }),
      ]);
      expect(both.map((result) => result.status).sort()).toEqual([200, 400]);
      const winner = both.find((result) => result.status === 200)!;
      expect(
        (
          await requestToken(server, {
            grant_type: 'refresh_token',
            refresh_token: winner.body.refresh_token,
          })
        ).status,
      ).toBe(200);
    },
  );

  it.skipIf(!available)(
    'ends a session at its absolute limit however often it is refreshed',
    async () => {
      const first = await signIn(server, 'demo', 'admin', 'admin123');
      await server.db.system((sql) =>
        sql.query(`UPDATE user_session SET created_at = now() - interval '31 days' WHERE id = $1`, [
          first.jti,
        ]),
      );
      // Past the absolute limit: refused at once, whatever expires_at says.
      const second = await requestToken(server, {
        grant_type: 'refresh_token',
        refresh_token: first.refresh_token,
      });
      expect(second.status).toBe(400);
      expect(second.body.error).toBe('invalid_grant');
      expect(
        (
          await call(server, 'GET', '/api/uaa/users/getSysUser', {
            token: first.access_token,
          })
        ).status,
      ).toBe(401);
    },
  );

  it.skipIf(!available)('logout revokes the session at once', async () => {
    const token = await signIn(server, 'demo', 'admin', 'admin123');
    expect(
      (await call(server, 'POST', '/api/uaa/oauth/logout', { token: token.access_token })).status,
    ).toBe(200);
    const after = await call(server, 'GET', '/api/uaa/users/getSysUser', {
      token: token.access_token,
    });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe(50012);
    expect(
      (
        await requestToken(server, {
          grant_type: 'refresh_token',
          refresh_token: token.refresh_token,
        })
      ).status,
    ).toBe(400);
  });

  it.skipIf(!available)(
    'answers 401 with the spec codes for missing, forged and expired tokens',
    async () => {
      const none = await call(server, 'GET', '/api/uaa/users/getSysUser');
      expect(none.status).toBe(401);
      expect(none.body.code).toBe(401);
      const forged = await call(server, 'GET', '/api/uaa/users/getSysUser', {
        token: 'abc.def.ghi',
      });
      expect(forged.body).toMatchObject({ code: 50008, error: 'invalid_token' });

      const { access_token } = await signIn(server, 'demo', 'admin', 'admin123');
      const [, payload] = access_token.split('.');
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
      const secret = await server.db.system((sql) =>
        sql.query<{ value: string }>(`SELECT value FROM server_secret WHERE name = 'jwt'`),
      );
      const expired = await new SignJWT({ ...claims, exp: Math.floor(Date.now() / 1000) - 60 })
        .setProtectedHeader({ alg: 'HS256' })
        .sign(new TextEncoder().encode(secret.rows[0]!.value));
      const old = await call(server, 'GET', '/api/uaa/users/getSysUser', { token: expired });
      expect(old.status).toBe(401);
      expect(old.body).toMatchObject({
        code: 50014,
        error: 'invalid_token',
        message: 'The session has expired, sign in again',
      });
      // A token signed with another key, claiming admin of acme, is refused.
      const other = await new SignJWT({ ...claims, tc: 'acme' })
        .setProtectedHeader({ alg: 'HS256' })
        .sign(new TextEncoder().encode('x'.repeat(43)));
      expect(
        (await call(server, 'GET', '/api/uaa/users/getSysUser', { token: other })).body.code,
      ).toBe(50008);
    },
  );

  it.skipIf(!available)(
    'honours the role-code header only for roles the caller holds',
    async () => {
      const { access_token } = await signIn(server, 'demo', 'operator', 'operator123');
      const asAdmin = await call(server, 'GET', '/api/uaa/users/getSysUser', {
        token: access_token,
        headers: { 'x-role-code': 'ROLE_ADMIN' },
      });
      expect(asAdmin.status).toBe(403);
      expect(asAdmin.body.message).toBe('You do not hold the role ROLE_ADMIN');
      const asSelf = await call(server, 'GET', '/api/uaa/users/getSysUser', {
        token: access_token,
        headers: { 'x-role-code': 'ROLE_OPERATOR-token' },
      });
      expect(asSelf.body.data.activeRole).toBe('ROLE_OPERATOR');
    },
  );

  it.skipIf(!available)(
    'gives menus and buttons for the active role and refuses reading someone else',
    async () => {
      const { access_token } = await signIn(server, 'demo', 'operator', 'operator123');
      const authority = await call(
        server,
        'POST',
        '/api/account/sysuserdetail/queryCurrentAuthority',
        {
          token: access_token,
          query: { username: 'operator' },
        },
      );
      expect(authority.status).toBe(200);
      expect(authority.body.data.menu[0]).toMatchObject({
        menuCode: 'home',
        menuPath: '/home',
        children: [{ menuPath: '/home/workbench' }],
      });
      // The operator's default grants: exports of the monitoring lists and of the traceability
      // records (read-only: no create, edit or delete button among them).
      expect([...authority.body.data.menuButton].sort()).toEqual([
        'alarmRecord:export',
        'farmwork:export',
        'iotCommand:export',
        'iotdevice:export',
        'logistics:export',
        'traceArea:export',
        'traceBase:export',
        'traceGrow:export',
        'traceHarvest:export',
        'tracePackage:export',
        'tracePlant:export',
        'tracePlanting:export',
        'traceProcess:export',
        'traceProcessInput:export',
        'traceProducer:export',
      ]);
      const other = await call(server, 'POST', '/api/account/sysuserdetail/queryCurrentAuthority', {
        token: access_token,
        query: { username: 'admin' },
      });
      expect(other.status).toBe(403);
    },
  );

  it.skipIf(!available)(
    'lists the tenants of a username, e-mail or mobile without signing in',
    async () => {
      const byName = await call(server, 'GET', '/api/admin/sysuser/queryTenantUser', {
        query: { userInfo: 'admin' },
        ip: freshIp(),
        lang: 'zh',
      });
      expect(byName.body.data).toEqual(
        expect.arrayContaining([
          { tenantCode: 'demo', tenantName: '演示灌区' },
          { tenantCode: 'acme', tenantName: '艾克米水务' },
        ]),
      );
      const byMail = await call(server, 'GET', '/api/admin/sysuser/queryTenantUser', {
        query: { userInfo: 'operator@demo.shuili.local' },
        ip: freshIp(),
      });
      expect(byMail.body.data).toEqual([
        { tenantCode: 'demo', tenantName: 'Demo Irrigation District' },
      ]);
      const byMobile = await call(server, 'GET', '/api/admin/sysuser/queryTenantUser', {
        query: { userInfo: '+8613900000001' },
        ip: freshIp(),
      });
      expect(byMobile.body.data).toEqual([{ tenantCode: 'acme', tenantName: 'Acme Water' }]);
      const nobody = await call(server, 'GET', '/api/admin/sysuser/queryTenantUser', {
        query: { userInfo: 'nobody-at-all' },
        ip: freshIp(),
      });
      expect(nobody.body.data).toEqual([]);
    },
  );

  it.skipIf(!available)(
    'records the session after sign-in (registerNewSession) and lists organisations',
    async () => {
      const { access_token, jti } = await signIn(server, 'demo', 'admin', 'admin123');
      const registered = await call(server, 'POST', '/api/admin/sysuser/registerNewSession', {
        token: access_token,
        ip: '192.0.2.7',
        headers: { 'user-agent': 'field-tablet/1.0' },
      });
      expect(registered.body.data).toMatchObject({
        id: jti,
        ip: '192.0.2.7',
        userAgent: 'field-tablet/1.0',
      });
      const orgs = await call(server, 'GET', '/api/admin/sysorg/querySysOrg', {
        token: access_token,
        query: { currentPage: '1', pageSize: '10000' },
      });
      expect(orgs.body.data).toMatchObject({
        total: 1,
        currentPage: 1,
        pageSize: 10000,
        list: [{ orgName: '演示灌区' }],
      });
      const hugePage = await call(server, 'GET', '/api/admin/sysorg/querySysOrg', {
        token: access_token,
        query: { currentPage: '9007199254740991', pageSize: '10000' },
      });
      expect(hugePage.status).toBe(400);
      expect(hugePage.body.errors[0].field).toBe('currentPage');
      const badPage = await call(server, 'GET', '/api/admin/sysorg/querySysOrg', {
        token: access_token,
        query: { currentPage: '0' },
      });
      expect(badPage.status).toBe(400);
      expect(badPage.body.errors).toEqual([
        { field: 'currentPage', message: 'Page must be at least 1' },
      ]);
    },
  );
});
