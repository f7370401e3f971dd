import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';

/** The operation log rows of one user, newest first. */
async function operations(server: TestServer, username: string, since: Date) {
  const result = await server.db.system((sql) =>
    sql.query<{ action: string; url: string; result: string }>(
      `SELECT l.action, l.url, l.result FROM operation_log l JOIN tenant t ON t.id = l.tenant_id
        WHERE t.tenant_code = 'acme' AND l.username = $1 AND l.created_at >= $2
        ORDER BY l.created_at DESC`,
      [username, since],
    ),
  );
  return result.rows;
}

describe.each(BACKENDS)('the operation log on $backend', ({ backend, available }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (available) server = await startTestServer({ backend });
  });
  afterAll(async () => server?.close());

  it.skipIf(!available)('records writes by what the route does, not by its method', async () => {
    const since = new Date(Date.now() - 1000);
    const token = (await signIn(server, 'acme', 'admin', 'admin123')).access_token;
    // Reads that use POST: the console's own authority call, an export, a code check.
    const authority = await call(
      server,
      'POST',
      '/api/account/sysuserdetail/queryCurrentAuthority',
      {
        token,
      },
    );
    expect(authority.status).toBe(200);
    const exported = await call(server, 'POST', '/api/admin/sysparam/exportCsvSysParam', { token });
    expect(exported.status).toBe(200);
    // A write (refused: nothing named), recorded with its language-neutral action.
    const added = await call(server, 'POST', '/api/admin/sysparam/addSysParam', {
      token,
      body: {},
    });
    expect(added.status).toBe(400);
    const reset = await call(server, 'POST', '/api/admin/sysuser/resetSysUserPassword', {
      token,
      body: {},
    });
    expect(reset.status).toBe(400);

    // The log is written after the answer has gone.
    await expect
      .poll(async () => (await operations(server, 'admin', since)).length, { timeout: 5000 })
      .toBe(2);
    const rows = await operations(server, 'admin', since);
    expect(rows.map((row) => row.action).sort()).toEqual(['add:SysParam', 'resetSysUserPassword']);
    expect(rows.every((row) => row.result === 'failure')).toBe(true);
    expect(rows.map((row) => row.url)).not.toContain(
      '/api/account/sysuserdetail/queryCurrentAuthority',
    );
  });

  it.skipIf(!available)('marks only the caller’s own session as current', async () => {
    const first = (await signIn(server, 'acme', 'admin', 'admin123')).access_token;
    await signIn(server, 'acme', 'admin', 'admin123');
    const online = await call<{ data: { list: { username: string; current: boolean }[] } }>(
      server,
      'GET',
      '/api/admin/sysuser/queryOnlineSysUser',
      { token: first, query: { username: 'admin', pageSize: '100' } },
    );
    expect(online.status).toBe(200);
    const mine = online.body.data.list.filter((row) => row.username === 'admin');
    expect(mine.length).toBeGreaterThan(1);
    expect(mine.filter((row) => row.current)).toHaveLength(1);
  });
});
