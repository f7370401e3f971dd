import type { Lang } from '@shuili/contract';
import type { Sql } from '../../db/database';

export interface TenantRow {
  id: string;
  tenant_code: string;
  tenant_name: string;
  tenant_name_i18n: Partial<Record<Lang, string>>;
  status: number;
  start_time: Date | null;
  end_time: Date | null;
  is_platform: boolean;
}

export interface LoginUserRow {
  id: string;
  tenant_id: string;
  username: string;
  password_hash: string;
  status: number;
}

/** The tenant's name in the caller's language, falling back to its stored name. */
export function tenantNameIn(
  tenant: Pick<TenantRow, 'tenant_name' | 'tenant_name_i18n'>,
  lang: Lang,
): string {
  return tenant.tenant_name_i18n?.[lang] || tenant.tenant_name;
}

/** A tenant may sign in only while enabled and inside its start/end time. */
export function isTenantActive(
  tenant: Pick<TenantRow, 'status' | 'start_time' | 'end_time'>,
  now = new Date(),
): boolean {
  if (tenant.status !== 1) return false;
  if (tenant.start_time && tenant.start_time > now) return false;
  if (tenant.end_time && tenant.end_time <= now) return false;
  return true;
}

const TENANT_COLUMNS =
  'id, tenant_code, tenant_name, tenant_name_i18n, status, start_time, end_time, is_platform';

/** Look-ups that sign-in makes before any tenant context exists (system transactions only). */
export const identityRepo = {
  async tenantByCode(sql: Sql, code: string): Promise<TenantRow | undefined> {
    const { rows } = await sql.query<TenantRow>(
      `SELECT ${TENANT_COLUMNS} FROM tenant WHERE tenant_code = $1`,
      [code],
    );
    return rows[0];
  },

  async tenantById(sql: Sql, id: string): Promise<TenantRow | undefined> {
    const { rows } = await sql.query<TenantRow>(
      `SELECT ${TENANT_COLUMNS} FROM tenant WHERE id = $1`,
      [id],
    );
    return rows[0];
  },

  /** The user of a tenant whose username, e-mail or mobile is `identifier`. */
  async userByIdentifier(
    sql: Sql,
    tenantId: string,
    identifier: string,
    mobile: string,
  ): Promise<LoginUserRow | undefined> {
    const { rows } = await sql.query<LoginUserRow>(
      `SELECT id, tenant_id, username, password_hash, status FROM sys_user
        WHERE tenant_id = $1 AND (lower(username) = lower($2) OR lower(email) = lower($2) OR mobile = $3)
        ORDER BY (lower(username) = lower($2)) DESC LIMIT 1`,
      [tenantId, identifier, mobile],
    );
    return rows[0];
  },

  async userByMobile(
    sql: Sql,
    tenantId: string,
    mobile: string,
  ): Promise<LoginUserRow | undefined> {
    const { rows } = await sql.query<LoginUserRow>(
      'SELECT id, tenant_id, username, password_hash, status FROM sys_user WHERE tenant_id = $1 AND mobile = $2',
      [tenantId, mobile],
    );
    return rows[0];
  },

  async userByEmail(
    sql: Sql,
    tenantId: string,
    email: string,
  ): Promise<(LoginUserRow & { email: string }) | undefined> {
    const { rows } = await sql.query<LoginUserRow & { email: string }>(
      'SELECT id, tenant_id, username, password_hash, status, email FROM sys_user WHERE tenant_id = $1 AND lower(email) = lower($2)',
      [tenantId, email],
    );
    return rows[0];
  },

  async userById(sql: Sql, userId: string): Promise<LoginUserRow | undefined> {
    const { rows } = await sql.query<LoginUserRow>(
      'SELECT id, tenant_id, username, password_hash, status FROM sys_user WHERE id = $1',
      [userId],
    );
    return rows[0];
  },

  /** Role codes of a user, ROLE_ADMIN first so it is the default active role. */
  async roleCodes(sql: Sql, userId: string): Promise<string[]> {
    const { rows } = await sql.query<{ role_code: string }>(
      `SELECT r.role_code FROM sys_user_role ur JOIN sys_role r ON r.id = ur.role_id
        WHERE ur.user_id = $1 AND r.status = 1
        ORDER BY (r.role_code = 'ROLE_ADMIN') DESC, r.role_code`,
      [userId],
    );
    return rows.map((row) => row.role_code);
  },

  /** Every tenant where someone signs in as `identifier` (username, e-mail or mobile). */
  async tenantsOf(sql: Sql, identifier: string, mobile: string): Promise<TenantRow[]> {
    const { rows } = await sql.query<TenantRow>(
      `SELECT ${TENANT_COLUMNS.split(', ')
        .map((c) => `t.${c}`)
        .join(', ')} FROM tenant t
        WHERE t.status = 1 AND EXISTS (
          SELECT 1 FROM sys_user u WHERE u.tenant_id = t.id AND u.status = 1
             AND (lower(u.username) = lower($1) OR lower(u.email) = lower($1) OR u.mobile = $2))
        ORDER BY t.tenant_code`,
      [identifier, mobile],
    );
    return rows;
  },
};
