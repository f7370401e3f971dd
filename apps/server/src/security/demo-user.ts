import crypto from 'node:crypto';
import { entityCalls, sysUserEntity } from '@shuili/contract';
import { call, signIn } from '@shuili/test-support/api-client';
import type { TestServer } from '@shuili/test-support/test-server';

/**
 * A demo user with these roles, created through the API as demo's administrator would (in demo's
 * first organisation); answers its id, name and a signed-in token. For the suites about who sees what.
 */
export async function addDemoUser(
  server: Pick<TestServer, 'url' | 'db'>,
  adminToken: string,
  roleCodes: string[],
): Promise<{ id: string; username: string; token: string }> {
  const { rows } = await server.db.system((sql) =>
    sql.query<{ org_id: string; role_ids: string[] }>(
      `SELECT (SELECT o.id::text FROM sys_org o WHERE o.tenant_id = t.id ORDER BY o.id LIMIT 1) AS org_id,
              array(SELECT r.id::text FROM sys_role r
                     WHERE r.tenant_id = t.id AND r.role_code = ANY ($1::text[])) AS role_ids
         FROM tenant t WHERE t.tenant_code = 'demo'`,
      [roleCodes],
    ),
  );
  const username = `live${crypto.randomBytes(3).toString('hex')}`;
  const created = await call(server, 'POST', entityCalls(sysUserEntity).add, {
    token: adminToken,
    body: {
      username,
      nickname: username,
      password: 'Live-access-42',
      orgId: rows[0]!.org_id,
      roleIds: rows[0]!.role_ids,
    },
  });
  if (created.status !== 200) throw new Error(`addSysUser: ${JSON.stringify(created.body)}`);
  const token = (await signIn(server, 'demo', username, 'Live-access-42')).access_token;
  return { id: String(created.body.data.id), username, token };
}
