import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { addUser, call, freshIp, requestToken, signIn } from '@shuili/test-support/api-client';
import {
  BACKENDS,
  otherNodeDatabase,
  startTestServer,
  type TestServer,
} from '@shuili/test-support/test-server';

const PASSWORD = 'Canal-gate-47';
const IDLE_SECONDS = 1800;
const MAX_SECONDS = 7200;

const sessionOf = (token: string): string =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid;

describe.each(BACKENDS)('own sessions and timeouts on $backend', ({ backend, available }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (available)
      server = await startTestServer({
        backend,
        config: { sessionIdleSeconds: IDLE_SECONDS, sessionMaxSeconds: MAX_SECONDS },
      });
  });
  afterAll(async () => server?.close());

  const me = (token: string) => call(server, 'GET', '/api/uaa/users/getSysUser', { token });
  const signInAs = async (username: string) => {
    const result = await requestToken(
      server,
      { grant_type: 'password', tenantCode: 'demo', username, password: PASSWORD },
      { ip: freshIp() },
    );
    expect(result.status).toBe(200);
    return result.body;
  };
  const refresh = (refreshToken: string) =>
    requestToken(server, { grant_type: 'refresh_token', refresh_token: refreshToken });
  /** Moves a session's clock back, before the server has remembered it as live. */
  const age = (token: string, column: 'last_seen_at' | 'created_at', seconds: number) =>
    server.db.system((sql) =>
      sql.query(
        `UPDATE user_session SET ${column} = now() - make_interval(secs => $2::int) WHERE id = $1`,
        [sessionOf(token), seconds],
      ),
    );

  it.skipIf(!available)(
    'lists the caller’s sessions and signs out one, the others, or all of them at once',
    async () => {
      await addUser(server, 'demo', 'traveller', PASSWORD);
      const [a, b, c, d] = [
        await signInAs('traveller'),
        await signInAs('traveller'),
        await signInAs('traveller'),
        await signInAs('traveller'),
      ];
      const someoneElse = await signIn(server, 'demo', 'admin', 'admin123');
      for (const token of [a, b, c, d, someoneElse])
        expect((await me(token.access_token)).status).toBe(200);

      const list = await call(server, 'GET', '/api/account/session/queryMySessions', {
        token: a.access_token,
      });
      expect(list.status).toBe(200);
      const sessions = list.body.data as Array<{ id: string; current: boolean; ip: string }>;
      expect(sessions.map((session) => session.id).sort()).toEqual(
        [a, b, c, d].map((token) => token.jti).sort(),
      );
      expect(sessions.filter((session) => session.current).map((session) => session.id)).toEqual([
        a.jti,
      ]);
      expect(sessions[0]).toMatchObject({ grantType: 'password' });
      expect(sessions[0]!.ip).toMatch(/^10\./);

      // Someone else's session is not the caller's to end.
      const foreign = await call(server, 'POST', '/api/account/session/signOutSession', {
        token: a.access_token,
        body: { id: someoneElse.jti },
      });
      expect(foreign.status).toBe(404);
      expect((await me(someoneElse.access_token)).status).toBe(200);
      const invalid = await call(server, 'POST', '/api/account/session/signOutSession', {
        token: a.access_token,
        body: { id: 'not-a-session' },
      });
      expect(invalid.status).toBe(400);
      expect(invalid.body.errors[0].field).toBe('id');

      // One: refused at its very next request (it was remembered as live a moment ago).
      const one = await call(server, 'POST', '/api/account/session/signOutSession', {
        token: a.access_token,
        body: { id: b.jti },
      });
      expect(one.body.data).toEqual({ count: 1 });
      expect((await me(b.access_token)).body).toMatchObject({ code: 50012 });
      expect((await refresh(b.refresh_token)).status).toBe(400);

      // The others: this one stays.
      const others = await call(server, 'POST', '/api/account/session/signOutOtherSessions', {
        token: a.access_token,
      });
      expect(others.body.data).toEqual({ count: 2 });
      expect((await me(c.access_token)).status).toBe(401);
      expect((await me(d.access_token)).status).toBe(401);
      expect((await me(a.access_token)).status).toBe(200);

      // Everywhere: this one too; someone else's untouched.
      const e = await signInAs('traveller');
      const everywhere = await call(server, 'POST', '/api/account/session/signOutEverywhere', {
        token: a.access_token,
      });
      expect(everywhere.body.data).toEqual({ count: 2 });
      expect(everywhere.headers.get('set-cookie')).toMatch(/refresh_token=;/);
      expect((await me(a.access_token)).status).toBe(401);
      expect((await me(e.access_token)).status).toBe(401);
      expect((await refresh(a.refresh_token)).status).toBe(400);
      expect((await me(someoneElse.access_token)).status).toBe(200);
    },
  );

  it.skipIf(!available)(
    'a session unused for SESSION_IDLE_SECONDS ends, for requests and refresh alike',
    async () => {
      await addUser(server, 'demo', 'dozer', PASSWORD);
      const idle = await signInAs('dozer');
      const recent = await signInAs('dozer');
      await age(idle.access_token, 'last_seen_at', IDLE_SECONDS + 60);
      await age(recent.access_token, 'last_seen_at', IDLE_SECONDS - 120);
      const refused = await me(idle.access_token);
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ code: 50012 });
      expect((await me(recent.access_token)).status).toBe(200);

      const idleAgain = await signInAs('dozer');
      await age(idleAgain.access_token, 'last_seen_at', IDLE_SECONDS + 60);
      const refreshed = await refresh(idleAgain.refresh_token);
      expect(refreshed.status).toBe(400);
      expect(refreshed.body.error).toBe('invalid_grant');
      expect((await refresh(recent.refresh_token)).status).toBe(200);

      // Idle sessions are not listed as live either.
      const list = await call(server, 'GET', '/api/account/session/queryMySessions', {
        token: recent.access_token,
      });
      const ids = (list.body.data as Array<{ id: string }>).map((session) => session.id);
      expect(ids).toContain(recent.jti);
      expect(ids).not.toContain(idle.jti);
    },
  );

  it.skipIf(!available)(
    'a session ends SESSION_MAX_SECONDS after sign-in, however recently used',
    async () => {
      await addUser(server, 'demo', 'marathon', PASSWORD);
      const old = await signInAs('marathon');
      // The first refresh token cannot outlive the absolute end either.
      const { rows } = await server.db.system((sql) =>
        sql.query<{ seconds: number }>(
          'SELECT extract(epoch FROM expires_at - created_at)::int AS seconds FROM user_session WHERE id = $1',
          [old.jti],
        ),
      );
      expect(rows[0]!.seconds).toBeLessThanOrEqual(MAX_SECONDS);

      await age(old.access_token, 'created_at', MAX_SECONDS + 1);
      expect((await me(old.access_token)).body).toMatchObject({ code: 50012 });
      const oldAgain = await signInAs('marathon');
      await age(oldAgain.access_token, 'created_at', MAX_SECONDS + 1);
      expect((await refresh(oldAgain.refresh_token)).status).toBe(400);

      const young = await signInAs('marathon');
      await age(young.access_token, 'created_at', MAX_SECONDS - 120);
      expect((await me(young.access_token)).status).toBe(200);
      expect((await refresh(young.refresh_token)).status).toBe(200);
    },
  );

  it.skipIf(!available || backend !== 'postgres')(
    'signing out everywhere on one node ends the sessions on another at once',
    async () => {
      await addUser(server, 'demo', 'two-nodes', PASSWORD);
      const here = await signInAs('two-nodes');
      expect((await me(here.access_token)).status).toBe(200); // remembered as live here
      // A second node: its own app and pool on the same database.
      const db = await otherNodeDatabase(server);
      const other = await buildApp({ config: server.config, db, logger: false });
      await other.listen({ port: 0, host: '127.0.0.1' });
      try {
        const address = other.server.address();
        const otherUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
        const there = await signIn({ url: otherUrl }, 'demo', 'two-nodes', PASSWORD);
        const ended = await call(
          { url: otherUrl },
          'POST',
          '/api/account/session/signOutEverywhere',
          {
            token: there.access_token,
          },
        );
        expect(ended.body.data).toEqual({ count: 2 });
        // The database announces it; this node forgets the session it remembered.
        let status = (await me(here.access_token)).status;
        for (let tries = 0; status === 200 && tries < 100; tries += 1) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          status = (await me(here.access_token)).status;
        }
        expect(status).toBe(401);
      } finally {
        await other.close();
        await db.close();
      }
    },
  );
});
