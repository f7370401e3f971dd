import { DEFAULT_DICTS } from '@shuili/contract';
import { openTarget, type Target } from '@shuili/test-support/database-target';
import { DEFAULT_ROLES } from '../../modules/admin/default-menus';

/** What the admin writes of the fault test left in the database, aggregate by aggregate. */
export interface AdminWriteState {
  /** Tenants (code starting with the prefix) missing part of what provisioning creates. */
  halfTenants: Array<{ code: string; missing: string[] }>;
  tenantCodes: Set<string>;
  /** Users (name starting with the prefix) without a role. */
  usersWithoutRole: string[];
  usernames: Set<string>;
  /** Devices whose credential rows are not exactly one active secret (after any rotation). */
  badCredentials: Array<{ deviceNo: string; active: number; total: number }>;
  deviceNos: Set<string>;
}

/**
 * Reads every aggregate the test's writes touched and lists those that are half written, by the
 * promises of the code's transactions: provisioning creates a tenant with all its default roles,
 * root organisation, menus granted to roles, dictionaries, URL list, IoT catalogue and an
 * administrator holding ROLE_ADMIN (tenant-provisioning.service.ts); a user is created with its
 * roles (user.hooks.ts); a secret rotation revokes the old secret and stores the new one
 * (credential.service.ts), so a device with credentials has exactly one active.
 */
export async function readAdminWrites(target: Target, prefix: string): Promise<AdminWriteState> {
  const db = await openTarget(target, 1);
  try {
    return await db.system(async (sql) => {
      const tenants = await sql.query<{
        code: string;
        roles: number;
        orgs: number;
        admins: number;
        role_menus: number;
        dicts: number;
        urls: number;
        products: number;
      }>(
        `SELECT t.tenant_code AS code,
                (SELECT count(*)::int FROM sys_role r WHERE r.tenant_id = t.id) AS roles,
                (SELECT count(*)::int FROM sys_org o WHERE o.tenant_id = t.id) AS orgs,
                (SELECT count(*)::int FROM sys_user_role ur JOIN sys_role r ON r.id = ur.role_id
                  WHERE ur.tenant_id = t.id AND r.role_code = 'ROLE_ADMIN') AS admins,
                (SELECT count(*)::int FROM sys_role_menu rm WHERE rm.tenant_id = t.id) AS role_menus,
                (SELECT count(*)::int FROM sys_dict d WHERE d.tenant_id = t.id) AS dicts,
                (SELECT count(*)::int FROM sys_url u WHERE u.tenant_id = t.id) AS urls,
                (SELECT count(*)::int FROM iot_product p WHERE p.tenant_id = t.id) AS products
           FROM tenant t WHERE t.tenant_code LIKE $1`,
        [`${prefix}%`],
      );
      const halfTenants = tenants.rows
        .map((row) => ({
          code: row.code,
          missing: [
            row.roles !== DEFAULT_ROLES.length && 'roles',
            row.orgs < 1 && 'organisation',
            row.admins < 1 && 'administrator',
            row.role_menus < 1 && 'menu grants',
            row.dicts !== DEFAULT_DICTS.length && 'dictionaries',
            row.urls < 1 && 'URL list',
            row.products < 1 && 'IoT catalogue',
          ].filter((problem): problem is string => Boolean(problem)),
        }))
        .filter((tenant) => tenant.missing.length > 0);

      const users = await sql.query<{ username: string; roles: number }>(
        `SELECT u.username, (SELECT count(*)::int FROM sys_user_role ur WHERE ur.user_id = u.id) AS roles
           FROM sys_user u JOIN tenant t ON t.id = u.tenant_id
          WHERE t.tenant_code = 'demo' AND u.username LIKE $1`,
        [`${prefix}%`],
      );
      const devices = await sql.query<{ device_no: string; active: number; total: number }>(
        `SELECT d.device_no,
                count(c.id) FILTER (WHERE c.revoked_at IS NULL)::int AS active,
                count(c.id)::int AS total
           FROM iot_device d JOIN tenant t ON t.id = d.tenant_id
           LEFT JOIN iot_device_credential c ON c.device_id = d.id
          WHERE t.tenant_code = 'demo'
          GROUP BY d.device_no`,
      );
      return {
        halfTenants,
        tenantCodes: new Set(tenants.rows.map((row) => row.code)),
        usersWithoutRole: users.rows.filter((row) => row.roles < 1).map((row) => row.username),
        usernames: new Set(users.rows.map((row) => row.username)),
        badCredentials: devices.rows
          .filter((row) => row.total > 0 && row.active !== 1)
          .map((row) => ({ deviceNo: row.device_no, active: row.active, total: row.total })),
        deviceNos: new Set(devices.rows.map((row) => row.device_no)),
      };
    });
  } finally {
    await db.close();
  }
}
