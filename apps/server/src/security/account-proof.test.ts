import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, call, signIn, userIdOf } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { totpCode, totpStep } from '../modules/uaa/totp';

const PASSWORD = 'Sluice-key-83';
const DETAIL = '/api/account/sysuserdetail/updateSysUserDetail';
const PROFILE = '/api/uaa/users/getSysUser';
let mobiles = 0;

/**
 * Issue 15 item 2: a stolen access token alone cannot take an account over by changing where it
 * is recovered (e-mail, mobile) or its second factor. Each change takes the current password (or
 * a fresh code of the second factor), ends the user's other sessions, and is told to the old
 * addresses; a refused one changes nothing.
 */
describe.each(BACKENDS)(
  'account recovery data takes proof on $backend',
  ({ backend, available }) => {
    let server: TestServer;
    beforeAll(async () => {
      if (available) server = await startTestServer({ backend });
    });
    afterAll(async () => server?.close());

    /** A demo user with old addresses, signed in twice: `mine` makes changes, `other` watches. */
    async function account(username: string) {
      mobiles += 1;
      const old = {
        email: `${username}@old.example`,
        mobile: `+86139${String(mobiles).padStart(8, '0')}`,
      };
      await addUser(server, 'demo', username, PASSWORD);
      await server.db.system((sql) =>
        sql.query(
          `UPDATE sys_user SET email = $2, mobile = $3, address = 'Old canal road'
          WHERE username = $1 AND tenant_id = (SELECT id FROM tenant WHERE tenant_code = 'demo')`,
          [username, old.email, old.mobile],
        ),
      );
      const mine = (await signIn(server, 'demo', username, PASSWORD)).access_token;
      const other = (await signIn(server, 'demo', username, PASSWORD)).access_token;
      return { old, mine, other };
    }

    /** The user's row as PostgreSQL prints it: every column, byte for byte. */
    const rowOf = async (username: string) =>
      (
        await server.db.system((sql) =>
          sql.query<{ row: string }>(
            `SELECT u::text AS row FROM sys_user u JOIN tenant t ON t.id = u.tenant_id
            WHERE t.tenant_code = 'demo' AND u.username = $1`,
            [username],
          ),
        )
      ).rows[0]!.row;

    /** Everything the development outbox "sent" to an address. */
    const outboxOf = async (recipient: string) =>
      (
        await server.db.system((sql) =>
          sql.query<{ channel: string; subject: string | null; body: string }>(
            'SELECT channel, subject, body FROM outbox_message WHERE recipient = $1 ORDER BY id',
            [recipient],
          ),
        )
      ).rows;

    const stillSignedIn = async (token: string) =>
      (await call(server, 'GET', PROFILE, { token })).status;

    it.skipIf(!available)(
      'an e-mail or mobile change without the current password is refused and changes nothing',
      async () => {
        const { old, mine, other } = await account('proof-refused');
        const before = await rowOf('proof-refused');
        const attempts = [
          { body: { nickname: 'proof-refused', email: 'thief@evil.example' }, lang: 'en' },
          { body: { email: 'thief@evil.example', mobile: '+8613700009999' }, lang: 'tw' },
          // A second-factor code is no proof for a user who has none.
          { body: { mobile: '+8613700009999', totpCode: '123456' }, lang: 'en' },
        ];
        const messages = [];
        for (const { body, lang } of attempts) {
          const refused = await call(server, 'PUT', DETAIL, { token: mine, body, lang });
          expect(refused.status, JSON.stringify(refused.body)).toBe(400);
          expect(refused.body.errors.map((e: { field: string }) => e.field)).toEqual([
            'currentPassword',
          ]);
          messages.push(refused.body.errors[0].message);
        }
        expect(messages).toEqual([
          'Enter your current password to make this change',
          '請輸入目前密碼以確認此變更',
          'Enter your current password to make this change',
        ]);
        const wrong = await call(server, 'PUT', DETAIL, {
          token: mine,
          body: { email: 'thief@evil.example', currentPassword: 'not-the-password' },
        });
        expect(wrong.status).toBe(400);
        expect(wrong.body.errors).toEqual([
          { field: 'currentPassword', message: 'The current password is wrong' },
        ]);

        expect(await rowOf('proof-refused')).toBe(before);
        expect(await outboxOf(old.email)).toEqual([]);
        expect(await outboxOf(old.mobile)).toEqual([]);
        expect(await stillSignedIn(other)).toBe(200);
      },
    );

    it.skipIf(!available)(
      'with the password the change lands, the old addresses are told and the other sessions end',
      async () => {
        const { old, mine, other } = await account('proof-given');
        const changed = await call(server, 'PUT', DETAIL, {
          token: mine,
          lang: 'zh',
          body: {
            email: 'new-home@demo.example',
            mobile: '+86 13700001234',
            currentPassword: PASSWORD,
          },
        });
        expect(changed.status, JSON.stringify(changed.body)).toBe(200);
        expect(changed.body.data).toMatchObject({
          email: 'new-home@demo.example',
          phone: '+8613700001234',
          nickname: 'proof-given',
          address: 'Old canal road',
        });

        // The owner hears of it where the account used to be recovered, in their language.
        const mail = await outboxOf(old.email);
        expect(mail).toHaveLength(1);
        expect(mail[0]).toMatchObject({
          channel: 'email',
          subject: '安全提醒：您的水利账号已被修改',
        });
        expect(mail[0]!.body).toContain('您的水利账号 proof-given（租户 demo）的邮箱已被修改。');
        expect(mail[0]!.body).toContain('的手机号已被修改。');
        const sms = await outboxOf(old.mobile);
        expect(sms).toHaveLength(1);
        expect(sms[0]).toMatchObject({ channel: 'sms', subject: null });
        expect(sms[0]!.body).toContain('的手机号已被修改');
        expect(await outboxOf('new-home@demo.example')).toEqual([]);

        // The session that made the change goes on; every other one has ended.
        expect(await stillSignedIn(mine)).toBe(200);
        expect(await stillSignedIn(other)).toBe(401);
      },
    );

    it.skipIf(!available)(
      'a partial update keeps every field it was not sent; unchanged addresses need no password',
      async () => {
        const { old, mine, other } = await account('proof-partial');
        const renamed = await call(server, 'PUT', DETAIL, {
          token: mine,
          body: { nickname: 'Sluice keeper' },
        });
        expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
        expect(renamed.body.data).toMatchObject({
          nickname: 'Sluice keeper',
          email: old.email,
          phone: old.mobile,
          address: 'Old canal road',
        });
        // The console sends the whole form: the same addresses (an e-mail in other letter case is the
        // same mailbox) are no change of them.
        const wholeForm = await call(server, 'PUT', DETAIL, {
          token: mine,
          body: {
            nickname: 'Sluice keeper',
            email: old.email.toUpperCase(),
            mobile: old.mobile,
            address: '',
          },
        });
        expect(wholeForm.status, JSON.stringify(wholeForm.body)).toBe(200);
        expect(wholeForm.body.data).toMatchObject({ phone: old.mobile, address: null });
        expect(await stillSignedIn(other)).toBe(200);
        expect(await outboxOf(old.email)).toEqual([]);
      },
    );

    it.skipIf(!available)(
      'wrong current passwords are throttled together with the password change',
      async () => {
        const { mine } = await account('proof-guessed');
        for (let guess = 0; guess < 5; guess += 1) {
          const refused = await call(server, 'PUT', DETAIL, {
            token: mine,
            body: { email: 'thief@evil.example', currentPassword: `guess-${guess}` },
          });
          expect(refused.status).toBe(400);
        }
        const locked = await call(server, 'PUT', DETAIL, {
          token: mine,
          body: { email: 'thief@evil.example', currentPassword: PASSWORD },
        });
        expect(locked.status).toBe(429);
        expect(locked.headers.get('retry-after')).toBeTruthy();
        const me = (await call(server, 'GET', PROFILE, { token: mine })).body.data;
        expect(me.email).toBe('proof-guessed@old.example');
        const passwordChange = await call(
          server,
          'PUT',
          '/api/account/sysuserdetail/updatePassword',
          {
            token: mine,
            body: { id: me.id, oldPassword: PASSWORD, newPassword: 'Sluice-key-84' },
          },
        );
        expect(passwordChange.status).toBe(429);
      },
    );

    it.skipIf(!available)(
      'two-step verification goes on and off only with the current password',
      async () => {
        const { old, mine, other } = await account('proof-mfa');
        const totpRows = async () =>
          (
            await server.db.system((sql) =>
              sql.query(
                `SELECT t.* FROM user_totp t JOIN sys_user u ON u.id = t.user_id
                WHERE u.username = 'proof-mfa'`,
              ),
            )
          ).rows;
        const start = (body?: unknown) =>
          call(server, 'POST', '/api/account/mfa/startEnrolment', { token: mine, body });
        for (const refused of [
          await start(),
          await start({}),
          await start({ currentPassword: 'not-the-password' }),
        ]) {
          expect(refused.status, JSON.stringify(refused.body)).toBe(400);
          expect(refused.body.errors.map((e: { field: string }) => e.field)).toEqual([
            'currentPassword',
          ]);
          expect(refused.body.data?.secret).toBeUndefined();
        }
        expect(await totpRows()).toEqual([]);

        const started = await start({ currentPassword: PASSWORD });
        expect(started.status, JSON.stringify(started.body)).toBe(200);
        const secret = started.body.data.secret as string;
        const step = totpStep();
        const on = await call(server, 'POST', '/api/account/mfa/confirmEnrolment', {
          token: mine,
          body: { code: totpCode(secret, step) },
        });
        expect(on.status, JSON.stringify(on.body)).toBe(200);
        const recoveryCodes = on.body.data.recoveryCodes as string[];
        expect(await stillSignedIn(mine)).toBe(200);
        expect(await stillSignedIn(other)).toBe(401);
        expect((await outboxOf(old.email)).map((message) => message.body).join()).toContain(
          'Two-step verification was turned on for your Shuili account proof-mfa (tenant demo).',
        );

        // With a second factor, a fresh code of it proves the person as the password does.
        const byCode = await call(server, 'PUT', DETAIL, {
          token: mine,
          body: { email: 'proof-mfa@new.example', totpCode: totpCode(secret, step + 1) },
        });
        expect(byCode.status, JSON.stringify(byCode.body)).toBe(200);
        const replayed = await call(server, 'PUT', DETAIL, {
          token: mine,
          body: { email: 'proof-mfa@newer.example', totpCode: totpCode(secret, step + 1) },
        });
        expect(replayed.status).toBe(400);
        expect(replayed.body.errors.map((e: { field: string }) => e.field)).toEqual(['totpCode']);

        // Off: the current password and a code (here a recovery code), both.
        const off = (body: unknown) =>
          call(server, 'POST', '/api/account/mfa/disableMfa', { token: mine, body });
        const noPassword = await off({ code: recoveryCodes[0] });
        expect(noPassword.status).toBe(400);
        expect(noPassword.body.errors.map((e: { field: string }) => e.field)).toEqual([
          'currentPassword',
        ]);
        const wrongPassword = await off({
          currentPassword: 'not-the-password',
          code: recoveryCodes[0],
        });
        expect(wrongPassword.status).toBe(400);
        expect((await totpRows())[0]).toMatchObject({ user_id: expect.anything() });
        const done = await off({ currentPassword: PASSWORD, code: recoveryCodes[0] });
        expect(done.status, JSON.stringify(done.body)).toBe(200);
        expect(await totpRows()).toEqual([]);
        expect(
          (await outboxOf('proof-mfa@new.example')).map((message) => message.body).join(),
        ).toContain('Two-step verification was turned off');
      },
    );

    it.skipIf(!available)(
      "an administrator's own addresses change only in the profile, not through the user editor",
      async () => {
        const admin = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
        const me = (await call(server, 'GET', PROFILE, { token: admin })).body.data;
        const before = await rowOf('admin');
        const own = await call(server, 'PUT', '/api/admin/sysuser/updateSysUser', {
          token: admin,
          body: { id: me.id, email: 'thief@evil.example' },
        });
        expect(own.status, JSON.stringify(own.body)).toBe(403);
        expect(own.body.errors).toEqual([
          {
            field: 'email',
            message:
              'Change your own email and mobile in your profile, where your password is asked',
          },
        ]);
        expect(await rowOf('admin')).toBe(before);
        // Unchanged addresses and other fields of oneself, and another user's addresses, still save.
        const same = await call(server, 'PUT', '/api/admin/sysuser/updateSysUser', {
          token: admin,
          body: { id: me.id, email: me.email, mobile: me.phone, nickname: me.nickname },
        });
        expect(same.status, JSON.stringify(same.body)).toBe(200);
        await account('proof-managed');
        const managed = await userIdOf(server, 'demo', 'proof-managed');
        const theirs = await call(server, 'PUT', '/api/admin/sysuser/updateSysUser', {
          token: admin,
          body: { id: managed, email: 'managed@demo.example' },
        });
        expect(theirs.status, JSON.stringify(theirs.body)).toBe(200);
      },
    );
  },
);
