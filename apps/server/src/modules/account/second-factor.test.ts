import { entityCalls, sysTenantEntity } from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addUser,
  call,
  freshIp,
  lastCode,
  requestToken,
  signIn,
  userIdOf,
} from '@shuili/test-support/api-client';
import {
  markStepUsed,
  rememberRecoveryCodes,
  rememberSecondFactor,
} from '@shuili/test-support/second-factor';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { totpCode, totpStep } from '../uaa/totp';

const PASSWORD = 'Canal-gate-47';

describe.each(BACKENDS)('TOTP second factor on $backend', ({ backend, available }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (available) server = await startTestServer({ backend });
  });
  afterAll(async () => server?.close());

  const password = (tenantCode: string, username: string, secret: string, totp?: string) =>
    requestToken(
      server,
      {
        grant_type: 'password',
        type: 'account',
        tenantCode,
        username,
        password: secret,
        totpCode: totp,
      },
      { ip: freshIp() },
    );

  /** Sessions of a user: a refused sign-in must create none. */
  const sessionsOf = async (tenantCode: string, username: string) => {
    const { rows } = await server.db.system((sql) =>
      sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM user_session s JOIN sys_user u ON u.id = s.user_id
           JOIN tenant t ON t.id = u.tenant_id WHERE t.tenant_code = $1 AND u.username = $2`,
        [tenantCode, username],
      ),
    );
    return rows[0]!.n;
  };

  /** A demo user who turned the second factor on from the profile; answers secret and codes. */
  async function enrolledFromProfile(username: string) {
    await addUser(server, 'demo', username, PASSWORD);
    const token = (await signIn(server, 'demo', username, PASSWORD)).access_token;
    const started = await call(server, 'POST', '/api/account/mfa/startEnrolment', {
      token,
      body: { currentPassword: PASSWORD },
    });
    expect(started.status).toBe(200);
    const secret = started.body.data.secret as string;
    const step = totpStep();
    const confirmed = await call(server, 'POST', '/api/account/mfa/confirmEnrolment', {
      token,
      body: { code: totpCode(secret, step) },
    });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    return { token, secret, step, recoveryCodes: confirmed.body.data.recoveryCodes as string[] };
  }

  it.skipIf(!available)(
    'the platform administrator must enrol at first sign-in, then signs in only with a fresh code',
    async () => {
      // Password alone: nothing issued, an enrolment ticket instead.
      const first = await password('platform', 'admin', 'admin123');
      expect(first.status).toBe(401);
      expect(first.body).toMatchObject({ error: 'mfa_enrollment_required' });
      expect(first.body.error_description).toBe('Set up an authenticator app to finish signing in');
      expect(first.body).not.toHaveProperty('access_token');
      expect(await sessionsOf('platform', 'admin')).toBe(0);
      const ticket = (first.body as { mfa_ticket?: string }).mfa_ticket!;

      const forged = await call(server, 'POST', '/api/uaa/mfa/startEnrolment', {
        body: { ticket: `${ticket.slice(0, -4)}AAAA` },
      });
      expect(forged.status).toBe(400);
      expect(forged.body.errors).toEqual([
        { field: 'ticket', message: 'This set-up has expired: sign in again' },
      ]);

      const enrolment = await call(server, 'POST', '/api/uaa/mfa/startEnrolment', {
        body: { ticket },
      });
      expect(enrolment.status).toBe(200);
      const { secret, otpauthUrl } = enrolment.body.data as { secret: string; otpauthUrl: string };
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(otpauthUrl).toMatch(
        new RegExp(`^otpauth://totp/Shuili:platform/admin\\?secret=${secret}&issuer=Shuili`),
      );

      // A wrong code confirms nothing and issues nothing.
      const step = totpStep();
      const wrong = await password(
        'platform',
        'admin',
        'admin123',
        totpCode(secret, step + 5), // a real code, of the wrong time
      );
      expect(wrong.status).toBe(400);
      expect(wrong.body).toMatchObject({ error: 'invalid_grant' });
      expect(wrong.body.errors).toEqual([
        { field: 'totpCode', message: 'The authenticator code is wrong or was already used' },
      ]);
      expect(await sessionsOf('platform', 'admin')).toBe(0);

      const confirmed = await password('platform', 'admin', 'admin123', totpCode(secret, step));
      expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
      expect(confirmed.body.access_token).toBeTruthy();
      const recovery = confirmed.body.recovery_codes!;
      expect(recovery).toHaveLength(10);
      expect(new Set(recovery).size).toBe(10);

      // The secret is never shown again.
      const again = await call(server, 'POST', '/api/uaa/mfa/startEnrolment', {
        body: { ticket },
      });
      expect(again.status).toBe(409);
      const stored = await server.db.system((sql) =>
        sql.query<{ secret_box: string; recovery_hashes: string[] }>(
          `SELECT secret_box, recovery_hashes FROM user_totp t JOIN sys_user u ON u.id = t.user_id
             JOIN tenant te ON te.id = u.tenant_id WHERE te.tenant_code = 'platform'`,
        ),
      );
      expect(stored.rows[0]!.secret_box).not.toContain(secret);
      expect(stored.rows[0]!.recovery_hashes.join()).not.toContain(recovery[0]!);

      // Without a code: mfa_required, nothing issued.
      const sessions = await sessionsOf('platform', 'admin');
      const noCode = await password('platform', 'admin', 'admin123');
      expect(noCode.status).toBe(401);
      expect(noCode.body).toMatchObject({
        error: 'mfa_required',
        error_description: 'Enter the 6-digit code of your authenticator app',
      });
      expect(noCode.body).not.toHaveProperty('access_token');

      // A code already used is refused (RFC 6238 §5.2); the next step's code signs in.
      const replay = await password('platform', 'admin', 'admin123', totpCode(secret, step));
      expect(replay.status).toBe(400);
      expect(await sessionsOf('platform', 'admin')).toBe(sessions);
      const next = await password('platform', 'admin', 'admin123', totpCode(secret, step + 1));
      expect(next.status).toBe(200);

      // A recovery code works once, in any case and spacing.
      const withRecovery = await password(
        'platform',
        'admin',
        'admin123',
        recovery[0]!.toUpperCase(),
      );
      expect(withRecovery.status).toBe(200);
      expect((await password('platform', 'admin', 'admin123', recovery[0]!)).status).toBe(400);

      // The wrong password still says so first, whatever the code.
      expect((await password('platform', 'admin', 'wrong-one', recovery[1]!)).status).toBe(400);

      // The login log has every attempt.
      const { rows } = await server.db.system((sql) =>
        sql.query<{ result: string; message: string | null }>(
          `SELECT result, message FROM login_log l JOIN tenant t ON t.id = l.tenant_id
            WHERE t.tenant_code = 'platform' ORDER BY l.id`,
        ),
      );
      expect(rows.map((row) => row.message ?? row.result)).toEqual(
        expect.arrayContaining([
          'Set up an authenticator app to finish signing in',
          'Enter the 6-digit code of your authenticator app',
          'The authenticator code is wrong or was already used',
          'success',
        ]),
      );

      // The platform's administrator cannot turn it off.
      const token = next.body.access_token;
      const status = await call(server, 'GET', '/api/account/mfa/queryMfaStatus', { token });
      expect(status.body.data).toEqual({
        enabled: true,
        required: true,
        policy: 'optional',
        recoveryCodesLeft: 9,
      });
      const off = await call(server, 'POST', '/api/account/mfa/disableMfa', {
        token,
        body: { currentPassword: 'admin123', code: recovery[2] },
      });
      expect(off.status).toBe(409);

      // Later tests sign in as the platform's administrator through the shared helper.
      rememberSecondFactor(server.url, 'platform', 'admin', secret);
      markStepUsed(server.url, 'platform', 'admin', step + 1);
      rememberRecoveryCodes(server.url, 'platform', 'admin', recovery.slice(3));
    },
  );

  it.skipIf(!available)(
    'a user of an optional tenant turns it on and off from the profile',
    async () => {
      expect((await password('demo', 'admin', 'admin123')).status).toBe(200);
      const { token, secret, step, recoveryCodes } = await enrolledFromProfile('mfa-profile');
      expect(recoveryCodes).toHaveLength(10);

      const wrongConfirm = await call(server, 'POST', '/api/account/mfa/confirmEnrolment', {
        token,
        body: { code: '12ab56' },
      });
      expect(wrongConfirm.status).toBe(400);
      expect(wrongConfirm.body.errors).toEqual([
        { field: 'code', message: 'Authenticator code must be 6 digits' },
      ]);
      expect((await password('demo', 'mfa-profile', PASSWORD)).body.error).toBe('mfa_required');
      const signedIn = await password('demo', 'mfa-profile', PASSWORD, totpCode(secret, step + 1));
      expect(signedIn.status).toBe(200);
      expect(signedIn.body.recovery_codes).toBeUndefined();

      const wrongPassword = await call(server, 'POST', '/api/account/mfa/disableMfa', {
        token,
        body: { currentPassword: 'not-mine-1', code: recoveryCodes[0] },
      });
      expect(wrongPassword.status).toBe(400);
      expect(wrongPassword.body.errors).toEqual([
        { field: 'currentPassword', message: 'The current password is wrong' },
      ]);
      const off = await call(server, 'POST', '/api/account/mfa/disableMfa', {
        token,
        body: { currentPassword: PASSWORD, code: recoveryCodes[0] },
      });
      expect(off.status).toBe(200);
      expect((await password('demo', 'mfa-profile', PASSWORD)).status).toBe(200);
    },
  );

  it.skipIf(!available)(
    'new recovery codes take the place of the old ones, against an authenticator code',
    async () => {
      const { token, secret, step, recoveryCodes } = await enrolledFromProfile('mfa-renewed');
      const renew = (code: string) =>
        call(server, 'POST', '/api/account/mfa/renewRecoveryCodes', { token, body: { code } });
      // A recovery code does not renew the others; a used step does not either.
      const byRecovery = await renew(recoveryCodes[0]!);
      expect(byRecovery.status).toBe(400);
      expect(byRecovery.body.errors).toEqual([
        { field: 'code', message: 'Authenticator code must be 6 digits' },
      ]);
      const replayed = await renew(totpCode(secret, step));
      expect(replayed.status).toBe(400);
      expect(replayed.body.errors).toEqual([
        { field: 'code', message: 'The authenticator code is wrong or was already used' },
      ]);

      const renewed = await renew(totpCode(secret, step + 1));
      expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
      const fresh = renewed.body.data.recoveryCodes as string[];
      expect(fresh).toHaveLength(10);
      expect(fresh.some((code) => recoveryCodes.includes(code))).toBe(false);
      const status = await call(server, 'GET', '/api/account/mfa/queryMfaStatus', { token });
      expect(status.body.data).toMatchObject({ enabled: true, recoveryCodesLeft: 10 });
      // Sign-in: an old recovery code is refused, a new one works once.
      const old = await password('demo', 'mfa-renewed', PASSWORD, recoveryCodes[1]);
      expect(old.status).toBe(400);
      expect((await password('demo', 'mfa-renewed', PASSWORD, fresh[0])).status).toBe(200);
      expect((await password('demo', 'mfa-renewed', PASSWORD, fresh[0])).status).toBe(400);

      // Off: nothing to renew.
      await call(server, 'POST', '/api/account/mfa/disableMfa', {
        token,
        body: { currentPassword: PASSWORD, code: fresh[1] },
      });
      const off = await renew(totpCode(secret, step + 1));
      expect(off.status).toBe(409);
      expect(off.body.message).toBe('Two-step verification is not on');
    },
  );

  it.skipIf(!available)('wrong codes are rate-limited per account', async () => {
    const { secret, step } = await enrolledFromProfile('mfa-guessed');
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const guess = String(100000 + attempt);
      const refused = await password('demo', 'mfa-guessed', PASSWORD, guess);
      expect(refused.status).toBe(400);
    }
    // Locked now: even the right code waits.
    const locked = await password('demo', 'mfa-guessed', PASSWORD, totpCode(secret, step + 1));
    expect(locked.status).toBe(429);
    expect(locked.headers.get('retry-after')).toBeTruthy();
  });

  it.skipIf(!available)(
    'a tenant whose policy is required sends its users to enrolment; SMS sign-in too',
    async () => {
      const platform = (await signIn(server, 'platform', 'admin', 'admin123')).access_token;
      const tenants = await call(server, 'GET', entityCalls(sysTenantEntity).query, {
        token: platform,
        query: { tenantCode: 'acme' },
      });
      const acme = (tenants.body.data.list as Array<Record<string, unknown>>).find(
        (tenant) => tenant.tenantCode === 'acme',
      )!;
      expect(acme.mfaPolicy).toBe('optional');
      const bad = await call(server, 'PUT', entityCalls(sysTenantEntity).update, {
        token: platform,
        body: { ...acme, mfaPolicy: 'sometimes' },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.errors[0].field).toBe('mfaPolicy');
      const updated = await call(server, 'PUT', entityCalls(sysTenantEntity).update, {
        token: platform,
        body: { id: acme.id, mfaPolicy: 'required' },
      });
      expect(updated.status, JSON.stringify(updated.body)).toBe(200);

      const mobile = '+8613900001111';
      await addUser(server, 'acme', 'field-hand', PASSWORD);
      await server.db.system((sql) =>
        sql.query(
          `UPDATE sys_user SET mobile = $1 WHERE username = 'field-hand'
              AND tenant_id = (SELECT id FROM tenant WHERE tenant_code = 'acme')`,
          [mobile],
        ),
      );
      const byPassword = await password('acme', 'field-hand', PASSWORD);
      expect(byPassword.body.error).toBe('mfa_enrollment_required');
      const sent = await call(server, 'GET', '/api/account/captcha/getSmsCaptcha', {
        query: { mobile, tenantCode: 'acme' },
        ip: freshIp(),
      });
      expect(sent.status).toBe(200);
      const sms = await lastCode(server, mobile);
      const byMobile = (totp?: string) =>
        requestToken(
          server,
          { grant_type: 'mobile', tenantCode: 'acme', mobile, smsCaptcha: sms, totpCode: totp },
          { ip: freshIp() },
        );
      const unenrolled = await byMobile();
      expect(unenrolled.status).toBe(401);
      expect(unenrolled.body.error).toBe('mfa_enrollment_required');
      const ticket = (unenrolled.body as { mfa_ticket?: string }).mfa_ticket!;
      const enrolment = await call(server, 'POST', '/api/uaa/mfa/startEnrolment', {
        body: { ticket },
      });
      const secret = enrolment.body.data.secret as string;
      expect(enrolment.body.data.otpauthUrl).toContain('Shuili:acme/field-hand?');
      // The same SMS code, now with the authenticator's: signed in, the SMS code used up.
      const step = totpStep();
      const done = await byMobile(totpCode(secret, step));
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      expect(done.body.recovery_codes).toHaveLength(10);
      expect((await byMobile(totpCode(secret, step + 1))).status).toBe(400);
    },
  );

  it.skipIf(!available)(
    "an administrator turns off a user's lost second factor: sessions end, the password alone signs in",
    async () => {
      const user = await enrolledFromProfile('mfa-lost-phone');
      const admin = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
      const userId = await userIdOf(server, 'demo', 'mfa-lost-phone');
      const reset = (id: string, token = admin) =>
        call(server, 'POST', '/api/admin/sysuser/resetSysUserSecondFactor', {
          token,
          body: { id },
        });
      const done = await reset(userId);
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      expect(done.body.data).toEqual({ wasOn: true, revoked: 1 });
      // The user's session ended with it; the password alone signs in now (optional policy).
      expect(
        (await call(server, 'GET', '/api/uaa/users/getSysUser', { token: user.token })).status,
      ).toBe(401);
      const again = await password('demo', 'mfa-lost-phone', PASSWORD);
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      expect((await reset(userId)).body.data).toEqual({ wasOn: false, revoked: 1 });
      // Another tenant's administrator cannot reach the user.
      const acmeAdmin = (await signIn(server, 'acme', 'admin', 'admin123')).access_token;
      expect((await reset(userId, acmeAdmin)).status).toBe(404);
      expect((await reset('999999999')).status).toBe(404);
    },
  );
});
