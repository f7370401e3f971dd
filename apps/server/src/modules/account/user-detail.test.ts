import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addUser as addTestUser,
  call,
  freshIp,
  requestToken,
  signIn,
} from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';

describe.each(BACKENDS)('own details and password on $backend', ({ backend, available }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (available) server = await startTestServer({ backend });
  });
  afterAll(async () => server?.close());

  async function addUser(username: string, secret: string) {
    await addTestUser(server, 'demo', username, secret);
    const token = await signIn(server, 'demo', username, secret);
    const me = await call(server, 'GET', '/api/uaa/users/getSysUser', {
      token: token.access_token,
    });
    return { token, id: me.body.data.id as string };
  }

  it.skipIf(!available)('updates the caller’s own details and answers the new record', async () => {
    const { token } = await addUser('detail-user', 'secret123');
    const updated = await call(server, 'PUT', '/api/account/sysuserdetail/updateSysUserDetail', {
      token: token.access_token,
      body: {
        nickname: ' 渠道管理员 ',
        email: 'canal@demo.example',
        mobile: '+86 13912345678',
        address: '',
        profile: 'Night shift',
        currentPassword: 'secret123',
      },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({
      username: 'detail-user',
      nickname: '渠道管理员',
      email: 'canal@demo.example',
      phone: '+8613912345678',
      address: null,
      profile: 'Night shift',
    });
  });

  it.skipIf(!available)(
    'refuses bad details naming the fields, and an address another account uses with 409',
    async () => {
      const { token } = await addUser('detail-bad', 'secret123');
      const bad = await call(server, 'PUT', '/api/account/sysuserdetail/updateSysUserDetail', {
        token: token.access_token,
        body: { nickname: '', email: 'nope', mobile: '138' },
        lang: 'tw',
      });
      expect(bad.status).toBe(400);
      expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual([
        'nickname',
        'email',
        'mobile',
      ]);
      expect(bad.body.errors[0].message).toBe('請輸入暱稱');
      const taken = await call(server, 'PUT', '/api/account/sysuserdetail/updateSysUserDetail', {
        token: token.access_token,
        body: { nickname: 'x', email: 'ADMIN@demo.shuili.local', currentPassword: 'secret123' },
      });
      expect(taken.status).toBe(409);
      expect(taken.body.errors).toEqual([
        { field: 'email', message: 'This email is already used by another account of the tenant' },
      ]);
    },
  );

  it.skipIf(!available)(
    'changes the password with the current one and ends the other sessions, keeping this one',
    async () => {
      const { token, id } = await addUser('pw-user', 'first-pass');
      const other = await signIn(server, 'demo', 'pw-user', 'first-pass');
      const wrong = await call(server, 'PUT', '/api/account/sysuserdetail/updatePassword', {
        token: token.access_token,
        body: { id, oldPassword: 'not-it', newPassword: 'second-pass' },
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body.errors).toEqual([
        { field: 'oldPassword', message: 'The current password is wrong' },
      ]);

      const changed = await call(server, 'PUT', '/api/account/sysuserdetail/updatePassword', {
        token: token.access_token,
        body: { id, password: 'first-pass', newPassword: 'second-pass' },
      });
      expect(changed.body).toEqual({ code: 200, message: 'success', data: null });
      expect(
        (await call(server, 'GET', '/api/uaa/users/getSysUser', { token: token.access_token }))
          .status,
      ).toBe(200);
      expect(
        (await call(server, 'GET', '/api/uaa/users/getSysUser', { token: other.access_token })).body
          .code,
      ).toBe(50012);
      expect(
        (
          await requestToken(
            server,
            {
              grant_type: 'password',
              tenantCode: 'demo',
              username: 'pw-user',
              password: 'first-pass',
            },
            { ip: freshIp() },
          )
        ).status,
      ).toBe(400);
      await signIn(server, 'demo', 'pw-user', 'second-pass');
    },
  );

  it.skipIf(!available)(
    'changes only the caller’s own password, validates it, and throttles guessing',
    async () => {
      const { token, id } = await addUser('pw-guard', 'guard-pass');
      const adminId = (
        await call(server, 'GET', '/api/uaa/users/getSysUser', {
          token: (await signIn(server, 'demo', 'admin', 'admin123')).access_token,
        })
      ).body.data.id;
      const someoneElse = await call(server, 'PUT', '/api/account/sysuserdetail/updatePassword', {
        token: token.access_token,
        body: { id: adminId, oldPassword: 'guard-pass', newPassword: 'taken-over' },
      });
      expect(someoneElse.status).toBe(403);
      const invalid = await call(server, 'PUT', '/api/account/sysuserdetail/updatePassword', {
        token: token.access_token,
        body: { id, newPassword: '123' },
      });
      expect(invalid.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
        'newPassword',
        'oldPassword',
      ]);
      for (let guess = 0; guess < 5; guess += 1) {
        await call(server, 'PUT', '/api/account/sysuserdetail/updatePassword', {
          token: token.access_token,
          body: { id, oldPassword: `guess-${guess}`, newPassword: 'new-pass-1' },
        });
      }
      const locked = await call(server, 'PUT', '/api/account/sysuserdetail/updatePassword', {
        token: token.access_token,
        body: { id, oldPassword: 'guard-pass', newPassword: 'new-pass-1' },
      });
      expect(locked.status).toBe(429);
      expect(locked.headers.get('retry-after')).toBeTruthy();
    },
  );
});
