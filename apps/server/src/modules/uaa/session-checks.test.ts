import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import {
  BACKENDS,
  startTestServer,
  testDatabaseUrl,
  type TestServer,
} from '@shuili/test-support/test-server';
import { SESSION_CHECK_TTL_MS } from './session-checks';

/** The session id inside an access token (claim sid). */
const sessionOf = (token: string): string =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid;

describe.each(BACKENDS)('remembered session checks on $backend', ({ backend, available }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (available) server = await startTestServer({ backend });
  });
  afterAll(async () => server?.close());

  const me = (token: string) => call(server, 'GET', '/api/uaa/users/getSysUser', { token });

  /** A signed-in admin of demo whose session the server has checked, and so remembers. */
  async function rememberedSession() {
    const token = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
    expect((await me(token)).status).toBe(200);
    expect((await me(token)).status).toBe(200);
    return { token, sessionId: sessionOf(token) };
  }

  it.skipIf(!available)(
    'a session ended by any SQL on this node is refused at the next request',
    async () => {
      // As an administrator's "remove online user" and a disabled account do: plain SQL.
      const revoked = await rememberedSession();
      await server.db.system((sql) =>
        sql.query(
          `UPDATE user_session SET revoked_at = now(), revoke_reason = 'test' WHERE id = $1`,
          [revoked.sessionId],
        ),
      );
      const refused = await me(revoked.token);
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ code: 50012 });

      // Deleted with its user or tenant (ON DELETE CASCADE): gone is ended too.
      const deleted = await rememberedSession();
      await server.db.system((sql) =>
        sql.query('DELETE FROM user_session WHERE id = $1', [deleted.sessionId]),
      );
      expect((await me(deleted.token)).status).toBe(401);

      // Signing out through the API ends it as well.
      const signedOut = await rememberedSession();
      await call(server, 'POST', '/api/uaa/oauth/logout', { token: signedOut.token });
      expect((await me(signedOut.token)).status).toBe(401);
    },
  );

  it.skipIf(!available || backend !== 'postgres')(
    'a session ended by another node is refused within the check TTL',
    async () => {
      const { token, sessionId } = await rememberedSession();
      // Another node: its own connection to the same database, not this server's pool.
      const other = new pg.Client({ connectionString: await testDatabaseUrl(server) });
      await other.connect();
      try {
        await other.query(`UPDATE user_session SET revoked_at = now() WHERE id = $1`, [sessionId]);
      } finally {
        await other.end();
      }
      const deadline = Date.now() + SESSION_CHECK_TTL_MS + 1_000;
      let status = (await me(token)).status;
      while (status === 200 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        status = (await me(token)).status;
      }
      expect(status).toBe(401);
    },
  );
});
