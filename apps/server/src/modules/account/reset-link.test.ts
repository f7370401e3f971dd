import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addUser,
  call,
  freshIp,
  lastCode,
  lastOutboxMessage,
  requestToken,
  signIn,
} from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';

/**
 * Spec §7 "retrievePassword with email and charCaptcha" (issue 16): with only those two params,
 * a one-time link (30 minutes, single use) is e-mailed; its page sets the new password.
 */
describe.each(BACKENDS)('password-reset links on $backend', ({ backend, available }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (available) server = await startTestServer({ backend });
  });
  afterAll(async () => server?.close());

  const retrieve = '/api/account/sysuserdetail/retrievePassword';
  const form = (path: string, params: Record<string, string>, ip = freshIp()) =>
    call(server, 'POST', path, {
      ip,
      body: new URLSearchParams(params).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  const newestMessage = async () =>
    (
      await server.db.system((sql) =>
        sql.query<{ recipient: string; body: string }>(
          'SELECT recipient, body FROM outbox_message ORDER BY id DESC LIMIT 1',
        ),
      )
    ).rows[0]!;
  const emailCode = async (email: string, tenantCode?: string) => {
    const sent = await call(server, 'GET', '/api/account/captcha/getEmailCaptcha', {
      query: { tenantCode, email },
      ip: freshIp(),
    });
    expect(sent.status).toBe(200);
    return lastCode(server, (await newestMessage()).recipient);
  };
  /** The links of the newest message to an address, with their tokens. */
  const linksTo = async (email: string) => {
    const body = (await lastOutboxMessage(server, email)) ?? '';
    return [...body.matchAll(/(\S+)\/forgotpassword\?resetToken=(\d+)/g)].map((match) => ({
      origin: match[1],
      token: match[2]!,
    }));
  };
  const passwordGrant = (tenantCode: string, username: string, password: string) =>
    requestToken(
      server,
      { grant_type: 'password', type: 'account', tenantCode, username, password },
      { ip: freshIp() },
    );
  const forgetLinkSends = (email: string) =>
    server.db.system((sql) =>
      sql.query('DELETE FROM rate_limit WHERE key = $1', [`reset-link-to:${email}`]),
    );

  it.skipIf(!available)(
    'e-mails a link for email and charCaptcha (form); the link sets the password once',
    async () => {
      const email = 'operator@demo.shuili.local';
      const session = await signIn(server, 'demo', 'operator', 'operator123');
      const code = await emailCode(email, 'demo');

      const sent = await form(retrieve, { email, charCaptcha: code });
      expect(sent.status).toBe(200);
      expect(sent.body).toEqual({ code: 200, message: 'success', data: null });
      const links = await linksTo(email);
      expect(links).toHaveLength(1);
      // The link's origin is the configured public URL, never the request's Host.
      expect(links[0]!.origin).toBe(server.config.publicUrl);
      const { token } = links[0]!;
      // Only a hash is kept.
      const stored = await server.db.system((sql) =>
        sql.query<{ token_hash: string; minutes: number }>(
          `SELECT token_hash, round(extract(epoch FROM expires_at - created_at) / 60)::int AS minutes
             FROM password_reset_link`,
        ),
      );
      expect(stored.rows).toHaveLength(1);
      expect(stored.rows[0]!.token_hash).not.toContain(token);
      expect(stored.rows[0]!.minutes).toBe(30);
      // The code was used up by the request.
      expect((await form(retrieve, { email, charCaptcha: code })).status).toBe(400);

      const page = await call(server, 'POST', '/api/account/sysuserdetail/checkResetLink', {
        body: { token },
      });
      expect(page.body.data).toMatchObject({
        tenantCode: 'demo',
        tenantName: 'Demo Irrigation District',
        username: 'operator',
      });
      // The password policy applies, and a refused password does not burn the link.
      const common = await call(server, 'POST', '/api/account/sysuserdetail/resetPasswordByLink', {
        body: { token, newPassword: 'password123' },
      });
      expect(common.status).toBe(400);
      expect(common.body.errors[0].field).toBe('newPassword');

      const reset = await call(server, 'POST', '/api/account/sysuserdetail/resetPasswordByLink', {
        body: { token, newPassword: 'Link-set-2026' },
      });
      expect(reset.status).toBe(200);
      // Every session of the account ended; the old password fails, the new one works.
      expect(
        (
          await call(server, 'GET', '/api/uaa/users/getSysUser', {
            token: session.access_token,
          })
        ).status,
      ).toBe(401);
      expect((await passwordGrant('demo', 'operator', 'operator123')).status).toBe(400);
      expect((await passwordGrant('demo', 'operator', 'Link-set-2026')).status).toBe(200);

      // Used once: the link and its page refuse it now.
      const again = await call(server, 'POST', '/api/account/sysuserdetail/resetPasswordByLink', {
        body: { token, newPassword: 'Link-set-2027' },
        lang: 'zh',
      });
      expect(again.status).toBe(400);
      expect(again.body.errors).toEqual([
        { field: 'token', message: '该密码重置链接已过期或已使用，请重新申请' },
      ]);
      const usedPage = await call(server, 'POST', '/api/account/sysuserdetail/checkResetLink', {
        body: { token },
      });
      expect(usedPage.status).toBe(400);
      expect(usedPage.body.errors[0].field).toBe('token');
    },
  );

  it.skipIf(!available)(
    'ends a link when the password or e-mail changes by another path',
    async () => {
      /** A new account of demo with an address, and a live link for it. */
      const linkFor = async (username: string) => {
        const email = `${username}@demo.example`;
        await addUser(server, 'demo', username, 'Link-change-2026');
        await server.db.system((sql) =>
          sql.query('UPDATE sys_user SET email = $1 WHERE username = $2', [email, username]),
        );
        const code = await emailCode(email, 'demo');
        expect((await form(retrieve, { email, charCaptcha: code })).status).toBe(200);
        return (await linksTo(email))[0]!.token;
      };
      const works = async (token: string) =>
        (
          await call(server, 'POST', '/api/account/sysuserdetail/checkResetLink', {
            body: { token },
          })
        ).status === 200;

      // The password changed (an administrator's reset, the user's own change: any path).
      const first = await linkFor('linkpass');
      expect(await works(first)).toBe(true);
      await server.db.system((sql) =>
        sql.query(
          "UPDATE sys_user SET password_hash = password_hash || 'x' WHERE username = 'linkpass'",
        ),
      );
      expect(await works(first)).toBe(false);

      // The e-mail changed: the link went to a mailbox the account has left.
      const second = await linkFor('linkmail');
      expect(await works(second)).toBe(true);
      await server.db.system((sql) =>
        sql.query("UPDATE sys_user SET email = 'moved@demo.example' WHERE username = 'linkmail'"),
      );
      expect(await works(second)).toBe(false);
    },
  );

  it.skipIf(!available)('refuses a link after 30 minutes', async () => {
    const email = 'admin@acme.shuili.local';
    const code = await emailCode(email, 'acme');
    // Query params, the other spec style.
    const sent = await call(server, 'POST', retrieve, {
      query: { email, charCaptcha: code },
      ip: freshIp(),
    });
    expect(sent.status).toBe(200);
    const { token } = (await linksTo(email))[0]!;
    await server.db.system((sql) =>
      sql.query(
        `UPDATE password_reset_link SET expires_at = now() - interval '1 second'
          WHERE user_id = (SELECT u.id FROM sys_user u JOIN tenant t ON t.id = u.tenant_id
                            WHERE t.tenant_code = 'acme' AND u.username = 'admin')`,
      ),
    );
    for (const path of ['checkResetLink', 'resetPasswordByLink']) {
      const answer = await call(server, 'POST', `/api/account/sysuserdetail/${path}`, {
        body: { token, newPassword: 'Too-late-2026' },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.message).toBe(
        'This password-reset link has expired or has already been used. Ask for a new one',
      );
    }
    expect((await passwordGrant('acme', 'admin', 'Too-late-2026')).status).toBe(400);
  });

  it.skipIf(!available)(
    'sends one e-mail with a link per account of an address shared by tenants',
    async () => {
      const email = 'twin@shared.example';
      for (const tenantCode of ['demo', 'acme']) {
        await addUser(server, tenantCode, 'twin', 'twin-secret-1');
        await server.db.system((sql) =>
          sql.query(
            `UPDATE sys_user SET email = $1 WHERE username = 'twin'
                AND tenant_id = (SELECT id FROM tenant WHERE tenant_code = $2)`,
            [tenantCode === 'demo' ? 'Twin@Shared.example' : email, tenantCode],
          ),
        );
      }
      // A code asked for without a tenant: the address in every tenant.
      const code = await call(server, 'GET', '/api/account/captcha/getEmailCaptcha', {
        query: { email },
        ip: freshIp(),
      });
      expect(code.status).toBe(200);
      const body = await newestMessage();
      // Delivered once, to the address as an account stores it.
      expect(body.recipient.toLowerCase()).toBe(email);
      const sent = await form(retrieve, {
        email,
        charCaptcha: body.body.match(/\b\d{6}\b/)![0],
      });
      expect(sent.status).toBe(200);
      const message = (await newestMessage()).body;
      expect(message).toContain('Acme Water (acme), account twin');
      expect(message).toContain('Demo Irrigation District (demo), account twin');
      expect(message.match(/resetToken=\d+/g)).toHaveLength(2);

      // A code asked for with a tenant links that tenant's account only; a minute between sends.
      await forgetLinkSends(email);
      const demoCode = await emailCode('Twin@Shared.example', 'demo');
      expect((await form(retrieve, { email, charCaptcha: demoCode })).status).toBe(200);
      const demoOnly = (await newestMessage()).body;
      expect(demoOnly).toContain('(demo), account twin');
      expect(demoOnly).not.toContain('(acme)');
      const acmeCode = await emailCode(email, 'acme');
      const tooSoon = await form(retrieve, { email, charCaptcha: acmeCode });
      expect(tooSoon.status).toBe(429);
      expect(tooSoon.body.message).toMatch(/A reset link was just sent/);
    },
  );

  it.skipIf(!available)(
    'answers an unknown address like a known one with a wrong code, and sends nothing',
    async () => {
      const ghost = 'ghost@nowhere.example';
      await call(server, 'GET', '/api/account/captcha/getEmailCaptcha', {
        query: { email: ghost },
        ip: freshIp(),
      });
      expect(await lastOutboxMessage(server, ghost)).toBeUndefined();
      const unknown = await form(retrieve, { email: ghost, charCaptcha: '123456' });
      const known = await form(retrieve, {
        email: 'admin@demo.shuili.local',
        charCaptcha: '123456',
      });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual(known.body);
      expect(unknown.body.errors).toEqual([
        { field: 'charCaptcha', message: 'The verification code is wrong or has expired' },
      ]);
      const none = await form(retrieve, {});
      expect(none.status).toBe(400);
      expect(none.body.errors.map((error: { field: string }) => error.field)).toEqual([
        'email',
        'charCaptcha',
      ]);
    },
  );

  it.skipIf(!available)(
    "keeps the console's two-step form, which needs the tenant code with a new password",
    async () => {
      const email = 'admin@demo.shuili.local';
      const code = await emailCode(email, 'demo');
      const noTenant = await call(server, 'POST', retrieve, {
        body: { email, charCaptcha: code, newPassword: 'Two-step-2026' },
      });
      expect(noTenant.status).toBe(400);
      expect(noTenant.body.errors[0].field).toBe('tenantCode');
      const unknown = await call(server, 'POST', retrieve, {
        body: { tenantCode: 'demo', email, charCaptcha: code, newPassword: 'x', extra: 1 },
      });
      expect(unknown.status).toBe(400);
      const reset = await call(server, 'POST', retrieve, {
        body: { tenantCode: 'demo', email, charCaptcha: code, newPassword: 'Two-step-2026' },
      });
      expect(reset.status).toBe(200);
      expect((await passwordGrant('demo', 'admin', 'Two-step-2026')).status).toBe(200);
    },
  );
});
