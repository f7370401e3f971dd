import { entityCalls, sysRoleEntity, sysUserEntity } from '@shuili/contract';
import { call, signIn } from './api-client';
import type { TestServer } from './test-server';

/**
 * A demo user whose only role holds no grant, created as demo's admin would (the default roles
 * start with grants of their own). Answers its access token and role id; `suffix` keeps several
 * in one database apart.
 */
export async function noGrantUser(
  server: Pick<TestServer, 'url' | 'db'>,
  suffix = 'x',
): Promise<{ token: string; roleId: string }> {
  const admin = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
  const role = await call(server, 'POST', entityCalls(sysRoleEntity).add, {
    token: admin,
    body: { roleCode: `ROLE_NOGRANT_${suffix.toUpperCase()}`, roleName: `No grants ${suffix}` },
  });
  if (role.status !== 200) throw new Error(`role: ${JSON.stringify(role.body)}`);
  const roleId = String(role.body.data.id);
  const { rows } = await server.db.system((sql) =>
    sql.query<{ id: string }>(
      `SELECT o.id::text FROM sys_org o JOIN tenant t ON t.id = o.tenant_id
        WHERE t.tenant_code = 'demo' ORDER BY o.id LIMIT 1`,
    ),
  );
  const username = `nogrant${suffix}`;
  const user = await call(server, 'POST', entityCalls(sysUserEntity).add, {
    token: admin,
    body: {
      username,
      nickname: 'No grants',
      password: 'nogrant-123',
      orgId: rows[0]!.id,
      roleIds: [roleId],
    },
  });
  if (user.status !== 200) throw new Error(`user: ${JSON.stringify(user.body)}`);
  return { token: (await signIn(server, 'demo', username, 'nogrant-123')).access_token, roleId };
}
