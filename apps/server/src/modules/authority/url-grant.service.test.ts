import { entityCalls, ROLE_OPERATOR, sysRoleEntity } from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database';
import { call, signIn } from '@shuili/test-support/api-client';
import { startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { UrlGrantService } from './url-grant.service';

const DEVICE_LIST = '/api/iot/device/queryIotDevice';

/*
 * The grant cache against a revoke that lands while a read of the old grants is still on its
 * way: that read may answer its own request, but it must not be kept, or the revoked URL keeps
 * working on this node for the cache's lifetime.
 */
describe('URL grant cache', () => {
  let server: TestServer;
  let demoId: string;

  beforeAll(async () => {
    server = await startTestServer();
    const { rows } = await server.db.system((sql) =>
      sql.query<{ id: string }>(`SELECT id::text FROM tenant WHERE tenant_code = 'demo'`),
    );
    demoId = rows[0]!.id;
  });
  afterAll(() => server?.close());

  /** The real database, with each tenant read held back (after it ran) until `release`. */
  function heldDatabase() {
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let read = () => {};
    const hasRead = new Promise<void>((resolve) => (read = resolve));
    const db = Object.create(server.db) as Database;
    db.tenant = async (tenantId, work) => {
      const result = await server.db.tenant(tenantId, work);
      read();
      await released;
      return result;
    };
    return { db, hasRead, release };
  }

  const setGrant = (granted: boolean) =>
    server.db.tenant(demoId, async (sql) => {
      const params = [ROLE_OPERATOR, DEVICE_LIST];
      if (granted)
        await sql.query(
          `INSERT INTO sys_role_url (tenant_id, role_id, url_id)
           SELECT r.tenant_id, r.id, u.id FROM sys_role r, sys_url u
            WHERE r.role_code = $1 AND u.url = $2 ON CONFLICT DO NOTHING`,
          params,
        );
      else
        await sql.query(
          `DELETE FROM sys_role_url WHERE role_id = (SELECT id FROM sys_role WHERE role_code = $1)
              AND url_id = (SELECT id FROM sys_url WHERE url = $2)`,
          params,
        );
    });

  it('does not keep grants read before a revoke it overlapped', async () => {
    const held = heldDatabase();
    const grants = new UrlGrantService(held.db);
    const overlapping = grants.allows(demoId, ROLE_OPERATOR, DEVICE_LIST);
    await held.hasRead;
    await setGrant(false);
    grants.invalidate();
    held.release();
    // The overlapping request was checked against what it read.
    expect(await overlapping).toBe(true);
    // The next one reads again and sees the revoke.
    expect(await grants.allows(demoId, ROLE_OPERATOR, DEVICE_LIST)).toBe(false);
    await setGrant(true);
  });

  it('keeps grants read without an invalidation between, until invalidated', async () => {
    const grants = new UrlGrantService(server.db);
    expect(await grants.allows(demoId, ROLE_OPERATOR, DEVICE_LIST)).toBe(true);
    await setGrant(false);
    // Cached: this node has not been told of the change.
    expect(await grants.allows(demoId, ROLE_OPERATOR, DEVICE_LIST)).toBe(true);
    grants.invalidate();
    expect(await grants.allows(demoId, ROLE_OPERATOR, DEVICE_LIST)).toBe(false);
    await setGrant(true);
  });

  it('a role disabled through its screen is refused on the next call, its cached grants gone', async () => {
    const [admin, operator] = await Promise.all([
      signIn(server, 'demo', 'admin', 'admin123'),
      signIn(server, 'demo', 'operator', 'operator123'),
    ]);
    const listDevices = () =>
      call(server, 'GET', DEVICE_LIST, { token: operator.access_token }).then((r) => r.status);
    const { rows } = await server.db.tenant(demoId, (sql) =>
      sql.query<{ id: string }>(`SELECT id::text FROM sys_role WHERE role_code = $1`, [
        ROLE_OPERATOR,
      ]),
    );
    const setStatus = (status: 0 | 1) =>
      call(server, 'POST', entityCalls(sysRoleEntity).status, {
        token: admin.access_token,
        body: { ids: [rows[0]!.id], status },
      }).then((r) => r.status);
    // The first call fills this node's cache with the operator's grants.
    expect(await listDevices()).toBe(200);
    expect(await setStatus(0)).toBe(200);
    expect(await listDevices()).toBe(403);
    expect(await setStatus(1)).toBe(200);
    expect(await listDevices()).toBe(200);
  });
});
