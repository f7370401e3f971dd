import { entityCalls, sysRoleEntity, sysUserEntity } from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';

/** Spec §4 role switch as the server sees it: the role names, and the role the header picks. */
describe.each(BACKENDS)('role switch on $backend', ({ backend, available }) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    const admin = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
    const role = await call(server, 'POST', entityCalls(sysRoleEntity).add, {
      token: admin,
      body: { roleCode: 'ROLE_AUDITOR', roleName: 'Auditor' },
    });
    const roles = await call(server, 'GET', entityCalls(sysRoleEntity).query, {
      token: admin,
      query: { pageSize: '100' },
    });
    const operator = (roles.body.data.list as Array<{ id: string; roleCode: string }>).find(
      (row) => row.roleCode === 'ROLE_OPERATOR',
    )!;
    const { rows } = await server.db.system((sql) =>
      sql.query<{ id: string }>(
        `SELECT o.id::text FROM sys_org o JOIN tenant t ON t.id = o.tenant_id
          WHERE t.tenant_code = 'demo' ORDER BY o.id LIMIT 1`,
      ),
    );
    const user = await call(server, 'POST', entityCalls(sysUserEntity).add, {
      token: admin,
      body: {
        username: 'twinrole',
        nickname: 'Two roles',
        password: 'twinrole-123',
        orgId: rows[0]!.id,
        roleIds: [operator.id, String(role.body.data.id)],
      },
    });
    expect(user.status).toBe(200);
    token = (await signIn(server, 'demo', 'twinrole', 'twinrole-123')).access_token;
  });
  afterAll(async () => server?.close());

  const me = (role?: string) =>
    call(server, 'GET', '/api/uaa/users/getSysUser', {
      token,
      headers: role ? { 'x-role-code': role } : {},
    });

  it.skipIf(!available)('names every role the user holds, and acts as the first', async () => {
    const answer = await me();
    expect(answer.body.data).toMatchObject({
      roles: ['ROLE_AUDITOR', 'ROLE_OPERATOR'],
      roleNames: ['Auditor', expect.any(String)],
      activeRole: 'ROLE_AUDITOR',
    });
  });

  it.skipIf(!available)(
    'acts as the role the stored "<role>-token" names: user info and menus follow',
    async () => {
      expect((await me('ROLE_OPERATOR-token')).body.data.activeRole).toBe('ROLE_OPERATOR');
      const menuOf = async (role: string) => {
        const answer = await call(
          server,
          'POST',
          '/api/account/sysuserdetail/queryCurrentAuthority',
          { token, headers: { 'x-role-code': role } },
        );
        const paths: string[] = [];
        const walk = (nodes: Array<{ menuPath: string; children: never[] }>) =>
          nodes.forEach((node) => {
            paths.push(node.menuPath);
            walk(node.children);
          });
        walk(answer.body.data.menu);
        return paths;
      };
      // The new role has no menus yet; the operator's are the device screens.
      expect(await menuOf('ROLE_AUDITOR-token')).toEqual([]);
      expect(await menuOf('ROLE_OPERATOR-token')).toContain('/iot/deviceList');
      expect((await me('ROLE_ADMIN-token')).status).toBe(403);
    },
  );
});
