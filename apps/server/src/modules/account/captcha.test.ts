import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  freshIp,
  lastCode,
  lastOutboxMessage,
  requestToken,
  signIn,
} from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';

describe.each(BACKENDS)(
  'captchas, registration and password retrieval on $backend',
  ({ backend, available }) => {
    let server: TestServer;
    beforeAll(async () => {
      if (available) server = await startTestServer({ backend });
    });
    afterAll(async () => server?.close());

    const sendSms = (mobile: string, tenantCode?: string, ip = freshIp()) =>
      call(server, 'GET', '/api/account/captcha/getSmsCaptcha', {
        query: { mobile, tenantCode },
        ip,
      });

    it.skipIf(!available)(
      'sends a 6-digit SMS code that never appears in the answer, once a minute',
      async () => {
        const sent = await sendSms('+86 13800000001', 'demo');
        expect(sent.status).toBe(200);
        expect(sent.body.data).toEqual({ expiresIn: 300, resendIn: 60 });
        const code = await lastCode(server, '+8613800000001');
        expect(code).toMatch(/^\d{6}$/);
        expect(JSON.stringify(sent.body)).not.toContain(code);

        const again = await sendSms('+8613800000001', 'demo');
        expect(again.status).toBe(429);
        expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(50);
        expect(again.body.message).toMatch(/Wait \d+ seconds/);
      },
    );

    it.skipIf(!available)(
      'sends one code when many requests for a number arrive together',
      async () => {
        const mobile = '+8613811110000';
        const answers = await Promise.all(Array.from({ length: 8 }, () => sendSms(mobile)));
        expect(answers.map((answer) => answer.status).sort()).toEqual([
          200, 429, 429, 429, 429, 429, 429, 429,
        ]);
        const sent = await server.db.system((sql) =>
          sql.query('SELECT 1 FROM outbox_message WHERE recipient = $1', [mobile]),
        );
        expect(sent.rows).toHaveLength(1);
      },
    );

    it.skipIf(!available)(
      'counts wrong codes across fresh codes, so asking again buys no new guesses',
      async () => {
        const mobile = '+8613822220000';
        const guess = (code: string) =>
          call(server, 'POST', '/api/account/sysuserdetail/compareCaptcha', {
            query: { mobile, smsCaptcha: code },
          });
        await sendSms(mobile);
        const firstCode = await lastCode(server, mobile);
        for (let n = 0; n < 5; n += 1) await guess(firstCode === '000000' ? '111111' : '000000');
        // A new code (the minute between sends skipped for the test) gets five more tries at most.
        await server.db.system((sql) =>
          sql.query(`DELETE FROM rate_limit WHERE key = $1`, [`captcha-to:sms:${mobile}`]),
        );
        await sendSms(mobile);
        const secondCode = await lastCode(server, mobile);
        for (let n = 0; n < 5; n += 1) await guess(secondCode === '000000' ? '111111' : '000000');
        await server.db.system((sql) =>
          sql.query(`DELETE FROM rate_limit WHERE key = $1`, [`captcha-to:sms:${mobile}`]),
        );
        await sendSms(mobile);
        const thirdCode = await lastCode(server, mobile);
        // Ten wrong codes are spent; the next wrong one locks the number for an hour.
        await guess(thirdCode === '000000' ? '111111' : '000000');
        expect((await guess(thirdCode)).status).toBe(400);
      },
    );

    it.skipIf(!available)('signs in with the mobile grant; the code works once', async () => {
      await sendSms('+8613800000002', 'demo');
      const code = await lastCode(server, '+8613800000002');
      const params = {
        grant_type: 'mobile',
        type: 'mobile',
        tenantCode: 'demo',
        mobile: ' +86 13800000002 ',
        smsCaptcha: ` ${code} `,
      };
      const first = await requestToken(server, params);
      expect(first.status).toBe(200);
      const me = await call(server, 'GET', '/api/uaa/users/getSysUser', {
        token: first.body.access_token,
      });
      expect(me.body.data.username).toBe('operator');
      const second = await requestToken(server, params);
      expect(second.status).toBe(400);
      expect(second.body).toMatchObject({
        error: 'invalid_grant',
        error_description: 'The verification code is wrong or has expired',
      });
    });

    it.skipIf(!available)(
      'checks a code with compareCaptcha without using it up, and allows five guesses',
      async () => {
        const mobile = '+8613700000009';
        await sendSms(mobile);
        const code = await lastCode(server, mobile);
        const wrong = await call(server, 'POST', '/api/account/sysuserdetail/compareCaptcha', {
          query: { mobile, smsCaptcha: code === '000000' ? '111111' : '000000' },
        });
        expect(wrong.status).toBe(400);
        expect(wrong.body.errors).toEqual([
          { field: 'smsCaptcha', message: 'The verification code is wrong or has expired' },
        ]);
        const right = await call(server, 'POST', '/api/account/sysuserdetail/compareCaptcha', {
          query: { mobile, smsCaptcha: code },
        });
        expect(right.body).toEqual({ code: 200, message: 'success', data: true });
        expect(
          (
            await call(server, 'POST', '/api/account/sysuserdetail/compareCaptcha', {
              query: { mobile, smsCaptcha: code },
            })
          ).status,
        ).toBe(200);
        for (let guess = 0; guess < 5; guess += 1) {
          await call(server, 'POST', '/api/account/sysuserdetail/compareCaptcha', {
            query: { mobile, smsCaptcha: code === '000000' ? '111111' : '000000' },
          });
        }
        // Five wrong guesses burn the code, even for the right one.
        expect(
          (
            await call(server, 'POST', '/api/account/sysuserdetail/compareCaptcha', {
              query: { mobile, smsCaptcha: code },
            })
          ).status,
        ).toBe(400);
        const bad = await call(server, 'POST', '/api/account/sysuserdetail/compareCaptcha', {
          query: { mobile: '13800000001', smsCaptcha: '12' },
          lang: 'zh',
        });
        expect(bad.body.errors).toEqual([
          { field: 'mobile', message: '手机号须为带国家代码的有效手机号，例如 +86 13800138000' },
          { field: 'smsCaptcha', message: '短信验证码须为 6 位数字' },
        ]);
      },
    );

    it.skipIf(!available)(
      'sends nothing to a number that is not in the tenant, yet answers the same',
      async () => {
        const sent = await sendSms('+8613600000000', 'demo');
        expect(sent.status).toBe(200);
        expect(await lastOutboxMessage(server, '+8613600000000')).toBeUndefined();
      },
    );

    it.skipIf(!available)('caps codes sent per address', async () => {
      const ip = freshIp();
      let status = 200;
      for (let n = 0; n < 21 && status === 200; n += 1)
        status = (await sendSms(`+861550000${String(n).padStart(4, '0')}`, undefined, ip)).status;
      expect(status).toBe(429);
    });

    it.skipIf(!available)('registers a new tenant whose admin can sign in at once', async () => {
      const mobile = '+8613511112222';
      await sendSms(mobile);
      const code = await lastCode(server, mobile);
      const body = {
        tenantName: '  青山灌区 ',
        username: 'qingshan',
        password: 'water-2026',
        email: 'boss@qingshan.example',
        mobile,
        smsCaptcha: code,
      };
      const registered = await call(server, 'POST', '/api/admin/sysuser/registerAccountInitial', {
        body,
      });
      expect(registered.status).toBe(200);
      const { tenantCode } = registered.body.data;
      expect(tenantCode).toMatch(/^t[a-z0-9]{7}$/);
      expect(await lastOutboxMessage(server, 'boss@qingshan.example')).toContain(tenantCode);

      const token = await signIn(server, tenantCode, 'qingshan', 'water-2026');
      const me = await call(server, 'GET', '/api/uaa/users/getSysUser', {
        token: token.access_token,
      });
      expect(me.body.data).toMatchObject({
        tenantName: '青山灌区',
        roles: ['ROLE_ADMIN'],
        username: 'qingshan',
      });
      const authority = await call(
        server,
        'POST',
        '/api/account/sysuserdetail/queryCurrentAuthority',
        { token: token.access_token },
      );
      expect(authority.body.data.menu[0].children[0].menuPath).toBe('/home/workbench');

      // The code was used up: the same registration cannot be replayed.
      const replay = await call(server, 'POST', '/api/admin/sysuser/registerAccountInitial', {
        body,
      });
      expect(replay.status).toBe(400);
      expect(replay.body.errors).toEqual([
        { field: 'smsCaptcha', message: 'The verification code is wrong or has expired' },
      ]);
    });

    it.skipIf(!available)(
      'refuses a bad registration naming every field and leaves nothing behind',
      async () => {
        const before = await server.db.system((sql) =>
          sql.query<{ n: number }>('SELECT count(*)::int AS n FROM tenant'),
        );
        const bad = await call(server, 'POST', '/api/admin/sysuser/registerAccountInitial', {
          body: {
            tenantName: '',
            username: 'ab',
            password: '123',
            email: 'not-mail',
            mobile: '123',
            smsCaptcha: 'abc',
          },
        });
        expect(bad.status).toBe(400);
        expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual([
          'tenantName',
          'username',
          'password',
          'email',
          'mobile',
          'smsCaptcha',
        ]);
        expect(bad.body.errors[0].message).toBe('Tenant name is required');
        const notJson = await call(server, 'POST', '/api/admin/sysuser/registerAccountInitial', {
          body: '{"tenantName":',
          headers: { 'content-type': 'application/json' },
        });
        expect(notJson.status).toBe(400);
        expect(notJson.body.message).toBe('The request body is not valid JSON');
        const after = await server.db.system((sql) =>
          sql.query<{ n: number }>('SELECT count(*)::int AS n FROM tenant'),
        );
        expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
      },
    );

    it.skipIf(!available)(
      'resets a forgotten password with an e-mailed code and ends the old sessions',
      async () => {
        const old = await signIn(server, 'acme', 'admin', 'admin123');
        const sent = await call(server, 'GET', '/api/account/captcha/getEmailCaptcha', {
          query: { tenantCode: 'acme', email: 'Admin@Acme.shuili.local' },
          ip: freshIp(),
        });
        expect(sent.status).toBe(200);
        const code = await lastCode(server, 'admin@acme.shuili.local');
        const wrong = await call(server, 'POST', '/api/account/sysuserdetail/retrievePassword', {
          body: {
            tenantCode: 'demo',
            email: 'admin@acme.shuili.local',
            charCaptcha: code,
            newPassword: 'new-secret-1',
          },
        });
        expect(wrong.status).toBe(400);
        const reset = await call(server, 'POST', '/api/account/sysuserdetail/retrievePassword', {
          body: {
            tenantCode: 'acme',
            email: 'admin@acme.shuili.local',
            charCaptcha: code,
            newPassword: 'new-secret-1',
          },
        });
        expect(reset.status).toBe(200);
        expect(
          (await call(server, 'GET', '/api/uaa/users/getSysUser', { token: old.access_token }))
            .status,
        ).toBe(401);
        expect(
          (
            await requestToken(
              server,
              {
                grant_type: 'password',
                tenantCode: 'acme',
                username: 'admin',
                password: 'admin123',
              },
              { ip: freshIp() },
            )
          ).status,
        ).toBe(400);
        await signIn(server, 'acme', 'admin', 'new-secret-1');
        // An unknown address is answered the same, and nothing is sent.
        const unknown = await call(server, 'GET', '/api/account/captcha/getEmailCaptcha', {
          query: { tenantCode: 'acme', email: 'ghost@acme.example' },
          ip: freshIp(),
        });
        expect(unknown.body).toEqual(sent.body);
        expect(await lastOutboxMessage(server, 'ghost@acme.example')).toBeUndefined();
      },
    );
  },
);
