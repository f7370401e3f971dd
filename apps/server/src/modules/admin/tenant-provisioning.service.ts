import { DEFAULT_DICTS, dictNameKey, type Lang } from '@shuili/contract';
import type { Sql } from '../../db/database';
import { seedIotCatalogue } from '../iot/device/iot-seed';
import { syncDefaultMenus } from './default-menu-sync';
import { DEFAULT_ROLES } from './default-menus';

export interface NewUser {
  username: string;
  nickname: string;
  passwordHash: string;
  email?: string | null;
  mobile?: string | null;
  roleCodes: string[];
}

export interface NewTenant {
  tenantCode: string;
  tenantName: string;
  tenantNameI18n?: Partial<Record<Lang, string>>;
  isPlatform?: boolean;
  startTime?: Date | null;
  endTime?: Date | null;
  contact?: string | null;
  email?: string | null;
  tel?: string | null;
  users: NewUser[];
}

/**
 * Creates a tenant with everything it needs to sign in and work: default roles, the root
 * organisation, the menus of the existing screens and their default buttons granted to those
 * roles, and its users. Runs inside the caller's (system) transaction, so it happens whole or
 * not at all. The roles' default URL grants come with the tenant's first URL list
 * (UrlGrantService.syncCatalogue), since only the running server knows its routes.
 */
export async function provisionTenant(
  sql: Sql,
  tenant: NewTenant,
): Promise<{ tenantId: string; userIds: string[] }> {
  const { rows } = await sql.query<{ id: string }>(
    `INSERT INTO tenant (tenant_code, tenant_name, tenant_name_i18n, is_platform, start_time, end_time, contact, email, tel)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
    [
      tenant.tenantCode,
      tenant.tenantName,
      JSON.stringify(tenant.tenantNameI18n ?? {}),
      tenant.isPlatform ?? false,
      tenant.startTime ?? null,
      tenant.endTime ?? null,
      tenant.contact ?? null,
      tenant.email ?? null,
      tenant.tel ?? null,
    ],
  );
  const tenantId = rows[0]!.id;

  const roleIds = new Map<string, string>();
  for (const role of DEFAULT_ROLES) {
    const inserted = await sql.query<{ id: string }>(
      'INSERT INTO sys_role (tenant_id, role_code, role_name, role_description) VALUES ($1, $2, $3, $4) RETURNING id',
      [tenantId, role.roleCode, role.roleName, role.roleDescription],
    );
    roleIds.set(role.roleCode, inserted.rows[0]!.id);
  }

  const org = await sql.query<{ id: string }>(
    `INSERT INTO sys_org (tenant_id, org_name, org_type, org_sequence) VALUES ($1, $2, 'company', 0) RETURNING id`,
    [tenantId, tenant.tenantName],
  );
  const orgId = org.rows[0]!.id;

  // The menus of the existing screens, their buttons, and the default roles' grants on them.
  await syncDefaultMenus(sql, [tenantId]);

  await sql.query(
    `INSERT INTO sys_dict (tenant_id, dict_type, dict_name, dict_value, dict_sequence)
     SELECT $1, unnest($2::text[]), unnest($3::text[]), unnest($4::text[]), unnest($5::int[])`,
    [
      tenantId,
      DEFAULT_DICTS.map((entry) => entry.dictType),
      DEFAULT_DICTS.map(dictNameKey),
      DEFAULT_DICTS.map((entry) => entry.dictValue),
      DEFAULT_DICTS.map((_, index) => index),
    ],
  );

  // Factors and one product per device kind, so a new tenant can add devices at once.
  await seedIotCatalogue(sql, tenantId);

  const userIds: string[] = [];
  for (const user of tenant.users) {
    const inserted = await sql.query<{ id: string }>(
      `INSERT INTO sys_user (tenant_id, username, nickname, password_hash, email, mobile, org_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [
        tenantId,
        user.username,
        user.nickname,
        user.passwordHash,
        user.email ?? null,
        user.mobile ?? null,
        orgId,
      ],
    );
    const userId = inserted.rows[0]!.id;
    userIds.push(userId);
    for (const roleCode of user.roleCodes) {
      const roleId = roleIds.get(roleCode);
      if (!roleId) throw new Error(`unknown default role ${roleCode}`);
      await sql.query(
        'INSERT INTO sys_user_role (tenant_id, user_id, role_id) VALUES ($1, $2, $3)',
        [tenantId, userId, roleId],
      );
    }
  }
  return { tenantId, userIds };
}
