import { entityCalls, sysUserEntity } from '@shuili/contract';
import { call, signIn } from './api-client';
import type { TestServer } from './test-server';

/**
 * A demo user with one of demo's roles, confined to zones (and those below them), created and
 * assigned as demo's administrator does it through the console's calls. Answers its access token.
 */
export async function zoneConfinedUser(
  server: TestServer,
  options: { username: string; roleCode: string; zoneIds: string[]; password?: string },
): Promise<string> {
  const password = options.password ?? 'Zoned-user-42';
  const admin = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
  const { rows } = await server.db.system((sql) =>
    sql.query<{ org_id: string; role_id: string }>(
      `SELECT (SELECT o.id::text FROM sys_org o WHERE o.tenant_id = t.id ORDER BY o.id LIMIT 1) AS org_id,
              (SELECT r.id::text FROM sys_role r WHERE r.tenant_id = t.id AND r.role_code = $1) AS role_id
         FROM tenant t WHERE t.tenant_code = 'demo'`,
      [options.roleCode],
    ),
  );
  const created = await call(server, 'POST', entityCalls(sysUserEntity).add, {
    token: admin,
    body: {
      username: options.username,
      nickname: options.username,
      password,
      orgId: rows[0]!.org_id,
      roleIds: [rows[0]!.role_id],
    },
  });
  if (created.status !== 200) throw new Error(`user: ${JSON.stringify(created.body)}`);
  const assigned = await call(server, 'POST', '/api/admin/syszone/assignZone', {
    token: admin,
    body: { userId: String(created.body.data.id), zoneIds: options.zoneIds },
  });
  if (assigned.status !== 200) throw new Error(`zones: ${JSON.stringify(assigned.body)}`);
  return (await signIn(server, 'demo', options.username, password)).access_token;
}

/**
 * Three new zones of demo for scope tests: a parent with a child below it, and another beside
 * them, named "<prefix>parent <suffix>" and so on (unique per run). Answers their ids.
 */
export async function parentChildOtherZones(
  server: TestServer,
  prefix: string,
  suffix: string,
): Promise<{ parent: string; child: string; other: string }> {
  return server.db.system(async (sql) => {
    const zone = async (name: string, parent: string | null) =>
      (
        await sql.query<{ id: string }>(
          `INSERT INTO sys_zone (tenant_id, zone_name, zone_code, zone_parent, zone_sequence)
           SELECT id, $1, $2, $3, 0 FROM tenant WHERE tenant_code = 'demo' RETURNING id::text`,
          [`${prefix}${name} ${suffix}`, `${prefix}${name}-${suffix}`.replace(/\s+/g, '-'), parent],
        )
      ).rows[0]!.id;
    const parent = await zone('Parent', null);
    return { parent, child: await zone('Child', parent), other: await zone('Other', null) };
  });
}
