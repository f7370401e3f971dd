import type { Lang, SysUser } from '@shuili/contract';
import type { Sql } from '../../db/database';
import { tenantNameIn } from './identity.repo';

/** The signed-in user's own record, as getSysUser answers it (read in the tenant's context). */
export async function readSysUser(
  sql: Sql,
  userId: string,
  activeRole: string,
  lang: Lang,
): Promise<SysUser | undefined> {
  const { rows } = await sql.query<{
    id: string;
    username: string;
    nickname: string;
    avatar: string | null;
    email: string | null;
    mobile: string | null;
    geographic: string | null;
    address: string | null;
    profile: string | null;
    tenant_code: string;
    tenant_name: string;
    tenant_name_i18n: Partial<Record<Lang, string>>;
    is_platform: boolean;
    roles: string[] | null;
    role_names: string[] | null;
  }>(
    `SELECT u.id, u.username, u.nickname, u.avatar, u.email, u.mobile, u.geographic, u.address, u.profile,
            t.tenant_code, t.tenant_name, t.tenant_name_i18n, t.is_platform,
            (SELECT array_agg(r.role_code ORDER BY (r.role_code = 'ROLE_ADMIN') DESC, r.role_code)
               FROM sys_user_role ur JOIN sys_role r ON r.id = ur.role_id
              WHERE ur.user_id = u.id AND r.status = 1) AS roles,
            (SELECT array_agg(r.role_name ORDER BY (r.role_code = 'ROLE_ADMIN') DESC, r.role_code)
               FROM sys_user_role ur JOIN sys_role r ON r.id = ur.role_id
              WHERE ur.user_id = u.id AND r.status = 1) AS role_names
       FROM sys_user u JOIN tenant t ON t.id = u.tenant_id
      WHERE u.id = $1`,
    [userId],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    id: row.id,
    username: row.username,
    nickname: row.nickname,
    roles: row.roles ?? [],
    roleNames: row.role_names ?? [],
    activeRole,
    avatar: row.avatar,
    tenantCode: row.tenant_code,
    tenantName: tenantNameIn(row, lang),
    platform: row.is_platform,
    email: row.email,
    phone: row.mobile,
    geographic: row.geographic,
    address: row.address,
    profile: row.profile,
  };
}
