import { entityCalls, sysOrgEntity, sysTenantEntity, sysUserEntity } from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, call, freshIp, lastCode, signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { checkNewPassword, commonPasswords } from './password-policy';

describe('the common-password list', () => {
  it('holds at least 10,000 passwords, lowercased', () => {
    const list = commonPasswords();
    expect(list.size).toBeGreaterThanOrEqual(10_000);
    for (const known of ['123456', 'password', 'qwerty', 'iloveyou', 'admin123'])
      expect(list.has(known)).toBe(true);
    expect([...list].every((entry) => entry === entry.toLowerCase())).toBe(true);
  });

  it('refuses common passwords in any case, and the username or tenant code', () => {
    const context = { field: 'password', username: 'Ranger-Li', tenantCode: 'hillside' };
    expect(() => checkNewPassword('PassWord1', context)).toThrow('validation.commonPassword');
    expect(() => checkNewPassword('ranger-li', context)).toThrow('validation.passwordIsName');
    expect(() => checkNewPassword('HILLSIDE', context)).toThrow('validation.passwordIsName');
    expect(() => checkNewPassword('Canal-gate-47', context)).not.toThrow();
  });
});

describe.each(BACKENDS)('common-password refusal on $backend', ({ backend, available }) => {
  let server: TestServer;
  let admin: string;
  let platform: string;
  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    admin = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
    platform = (await signIn(server, 'platform', 'admin', 'admin123')).access_token;
  });
  afterAll(async () => server?.close());

  const countOf = async (sqlText: string, params: unknown[] = []) => {
    const { rows } = await server.db.system((sql) =>
      sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sqlText}`, params),
    );
    return rows[0]!.n;
  };

  it.skipIf(!available)('an administrator cannot give a user a common password', async () => {
    const roles = await call(server, 'GET', '/api/admin/sysrole/querySysRole', { token: admin });
    const roleId = roles.body.data.list[0].id as string;
    const orgs = await call(server, 'GET', entityCalls(sysOrgEntity).query, { token: admin });
    const orgId = orgs.body.data.list[0].id as string;
    const users = await countOf('sys_user');
    const add = (username: string, password: string) =>
      call(server, 'POST', entityCalls(sysUserEntity).add, {
        token: admin,
        body: { username, nickname: username, password, orgId, roleIds: [roleId] },
      });
    const common = await add('clerk-a', 'Qwerty123');
    expect(common.status).toBe(400);
    expect(common.body.errors).toEqual([
      {
        field: 'password',
        message: 'Password is one of the most common passwords: choose another',
      },
    ]);
    const named = await add('clerk-b', 'Clerk-B');
    expect(named.status).toBe(400);
    expect(named.body.errors[0].message).toBe(
      'Password must not be the username or the tenant code',
    );
    expect(await countOf('sys_user')).toBe(users);
    expect((await add('clerk-c', 'Canal-gate-47')).status).toBe(200);

    // Reset by an administrator, in Chinese.
    const { rows } = await server.db.system((sql) =>
      sql.query<{ id: string }>(`SELECT id::text FROM sys_user WHERE username = 'clerk-c'`),
    );
    const reset = await call(server, 'POST', '/api/admin/sysuser/resetSysUserPassword', {
      token: admin,
      lang: 'zh',
      body: { id: rows[0]!.id, password: 'iloveyou' },
    });
    expect(reset.status).toBe(400);
    expect(reset.body.errors[0].field).toBe('password');
    expect(reset.body.errors[0].message).toContain('最常见的密码');
    await signIn(server, 'demo', 'clerk-c', 'Canal-gate-47');
  });

  it.skipIf(!available)('a user cannot change their own password to a common one', async () => {
    await addUser(server, 'demo', 'changer', 'Canal-gate-47');
    const token = (await signIn(server, 'demo', 'changer', 'Canal-gate-47')).access_token;
    const me = await call(server, 'GET', '/api/uaa/users/getSysUser', { token });
    const change = (newPassword: string) =>
      call(server, 'PUT', '/api/account/sysuserdetail/updatePassword', {
        token,
        lang: 'tw',
        body: { id: me.body.data.id, oldPassword: 'Canal-gate-47', newPassword },
      });
    const refused = await change('Password1');
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].field).toBe('newPassword');
    expect(refused.body.errors[0].message).toContain('最常見的密碼');
    expect((await change('changer')).status).toBe(400);
    expect((await change('Sluice-gate-58')).status).toBe(200);
  });

  it.skipIf(!available)(
    'registration, password retrieval and new tenants refuse common passwords',
    async () => {
      const tenants = await countOf('tenant');
      const mobile = '+8613722223333';
      await call(server, 'GET', '/api/account/captcha/getSmsCaptcha', {
        query: { mobile },
        ip: freshIp(),
      });
      const registered = await call(server, 'POST', '/api/admin/sysuser/registerAccountInitial', {
        body: {
          tenantName: 'Hillside',
          username: 'hillside',
          password: 'football',
          email: 'boss@hillside.example',
          mobile,
          smsCaptcha: await lastCode(server, mobile),
        },
      });
      expect(registered.status).toBe(400);
      expect(registered.body.errors[0].field).toBe('password');

      const created = await call(server, 'POST', entityCalls(sysTenantEntity).add, {
        token: platform,
        body: {
          tenantCode: 'riverbend',
          tenantName: 'Riverbend',
          adminUsername: 'chief',
          adminPassword: 'sunshine1',
        },
      });
      expect(created.status).toBe(400);
      expect(created.body.errors).toEqual([
        {
          field: 'adminPassword',
          message: 'Administrator password is one of the most common passwords: choose another',
        },
      ]);
      expect(await countOf('tenant')).toBe(tenants);

      // Retrieval: refused before the e-mailed code is spent, which then still works.
      const email = 'forgetful@demo.example';
      await addUser(server, 'demo', 'forgetful', 'Canal-gate-47');
      await server.db.system((sql) =>
        sql.query(`UPDATE sys_user SET email = $1 WHERE username = 'forgetful'`, [email]),
      );
      await call(server, 'GET', '/api/account/captcha/getEmailCaptcha', {
        query: { tenantCode: 'demo', email },
        ip: freshIp(),
      });
      const code = await lastCode(server, email);
      const retrieve = (newPassword: string) =>
        call(server, 'POST', '/api/account/sysuserdetail/retrievePassword', {
          body: { tenantCode: 'demo', email, charCaptcha: code, newPassword },
        });
      const refused = await retrieve('123456789');
      expect(refused.status).toBe(400);
      expect(refused.body.errors[0].field).toBe('newPassword');
      expect((await retrieve('Reservoir-19')).status).toBe(200);
    },
  );
});
