import { ROLE_ADMIN } from '@shuili/contract';
import type { Sql } from '../../db/database';
import {
  DEFAULT_MENUS,
  DEFAULT_ROLE_GRANTS,
  DEFAULT_ROLES,
  EXTRA_BUTTONS,
  type MenuSeed,
} from './default-menus';

/**
 * Gives tenants the default menus (DEFAULT_MENUS) they have not been given yet, each once: a
 * new tenant all of them (provisioning), an existing tenant those an upgrade added (every start,
 * in the seed's transaction). A menu comes with its buttons, its grants to ROLE_ADMIN and the
 * default roles it names, and those roles' default buttons on it (DEFAULT_ROLE_GRANTS). What a
 * tenant was given is recorded (sys_menu_default), so a menu its administrator deleted, or a
 * screen whose group they deleted, is never given again, and a menu of the tenant's own with
 * the same code is left as it is.
 */
export async function syncDefaultMenus(sql: Sql, tenantIds?: readonly string[]): Promise<void> {
  const { rows: tenants } = await sql.query<{ id: string; is_platform: boolean; given: string[] }>(
    `SELECT t.id::text AS id, t.is_platform,
            array(SELECT g.menu_code FROM sys_menu_default g WHERE g.tenant_id = t.id) AS given
       FROM tenant t
      WHERE $1::bigint[] IS NULL OR t.id = ANY($1::bigint[])
      ORDER BY t.id`,
    [tenantIds ?? null],
  );
  for (const tenant of tenants) {
    const given = new Set(tenant.given);
    const due = DEFAULT_MENUS.filter(
      (menu) => !given.has(menu.menuCode) && (!menu.platformOnly || tenant.is_platform),
    );
    if (due.length > 0) await giveMenus(sql, tenant.id, due);
  }
}

/** Creates the menus (parents listed before their children) in one tenant and records them. */
async function giveMenus(sql: Sql, tenantId: string, menus: MenuSeed[]): Promise<void> {
  await createNamedRoles(sql, tenantId, menus);
  const roles = await sql.query<{ id: string; role_code: string }>(
    `SELECT id::text AS id, role_code FROM sys_role WHERE tenant_id = $1 AND role_code = ANY($2::text[])`,
    [tenantId, DEFAULT_ROLES.map((role) => role.roleCode)],
  );
  const roleIds = new Map(roles.rows.map((row) => [row.role_code, row.id]));
  const codes = [
    ...new Set(
      menus.flatMap((menu) => (menu.parent ? [menu.menuCode, menu.parent] : [menu.menuCode])),
    ),
  ];
  const existing = await sql.query<{ id: string; menu_code: string }>(
    `SELECT id::text AS id, menu_code FROM sys_menu WHERE tenant_id = $1 AND menu_code = ANY($2::text[])`,
    [tenantId, codes],
  );
  const menuIds = new Map(existing.rows.map((row) => [row.menu_code, row.id]));
  const created = new Map<string, MenuSeed>();
  // Level by level (a group, then its screens), each level in one statement.
  let pending = menus.filter((menu) => !menuIds.has(menu.menuCode));
  while (pending.length > 0) {
    const ready = pending.filter((menu) => !menu.parent || menuIds.has(menu.parent));
    // What is left has no parent: its group was deleted by the tenant's administrator, so the
    // area stays removed (or the seed lists a child before an unknown parent).
    if (ready.length === 0) break;
    const inserted = await sql.query<{ id: string; menu_code: string }>(
      `INSERT INTO sys_menu (tenant_id, menu_code, menu_name, menu_icon, menu_path, menu_component, menu_sequence, menu_parent)
       SELECT $1, m.* FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::bigint[])
         AS m(code, name, icon, path, component, sequence, parent)
       RETURNING id::text AS id, menu_code`,
      [
        tenantId,
        ready.map((menu) => menu.menuCode),
        ready.map((menu) => menu.menuName),
        ready.map((menu) => menu.menuIcon),
        ready.map((menu) => menu.menuPath),
        ready.map((menu) => menu.menuComponent),
        ready.map((menu) => menu.menuSequence),
        ready.map((menu) => (menu.parent ? menuIds.get(menu.parent)! : null)),
      ],
    );
    const byCode = new Map(ready.map((menu) => [menu.menuCode, menu]));
    for (const row of inserted.rows) {
      menuIds.set(row.menu_code, row.id);
      created.set(row.id, byCode.get(row.menu_code)!);
    }
    pending = pending.filter((menu) => !byCode.has(menu.menuCode));
  }
  const buttons = [...created].flatMap(([menuId, menu]) =>
    [...(menu.buttons ?? []), ...(EXTRA_BUTTONS[menu.menuCode] ?? [])].map((button) => ({
      menuId,
      ...button,
    })),
  );
  if (buttons.length > 0) {
    await sql.query(
      `INSERT INTO sys_menu_button (tenant_id, menu_id, button_code, button_name)
       SELECT $1, unnest($2::bigint[]), unnest($3::text[]), unnest($4::text[])`,
      [
        tenantId,
        buttons.map((button) => button.menuId),
        buttons.map((button) => button.buttonCode),
        buttons.map((button) => button.buttonName),
      ],
    );
  }
  // Each menu to ROLE_ADMIN and the default roles it names.
  const roleMenus = [...created].flatMap(([menuId, menu]) =>
    [ROLE_ADMIN, ...menu.roles].flatMap((code) => {
      const roleId = roleIds.get(code);
      return roleId ? [{ roleId, menuId }] : [];
    }),
  );
  if (roleMenus.length > 0) {
    await sql.query(
      `INSERT INTO sys_role_menu (tenant_id, role_id, menu_id)
       SELECT $1, unnest($2::bigint[]), unnest($3::bigint[])`,
      [tenantId, roleMenus.map((grant) => grant.roleId), roleMenus.map((grant) => grant.menuId)],
    );
  }
  // The default roles' buttons on the menus just created.
  for (const [roleCode, grants] of Object.entries(DEFAULT_ROLE_GRANTS)) {
    const roleId = roleIds.get(roleCode);
    if (!roleId || grants.buttons.length === 0 || created.size === 0) continue;
    await sql.query(
      `INSERT INTO sys_role_menu_button (tenant_id, role_id, button_id)
       SELECT $1, $2, id FROM sys_menu_button
        WHERE tenant_id = $1 AND menu_id = ANY($3::bigint[]) AND button_code = ANY($4::text[])
       ON CONFLICT DO NOTHING`,
      [tenantId, roleId, [...created.keys()], grants.buttons],
    );
  }
  await sql.query(
    `INSERT INTO sys_menu_default (tenant_id, menu_code)
     SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`,
    [tenantId, menus.map((menu) => menu.menuCode)],
  );
}

/**
 * A default role that menus being given name, created where the tenant lacks it: a tenant
 * provisioned before an upgrade added the role (the cashier, with card billing) gets it with
 * that area's menus, once, since the menus are given once. The new role is also given the
 * tenant's earlier default menus that name it (the workbench) with its default buttons there;
 * its URL grants follow with the area's calls (UrlGrantService.syncCatalogue, after the seed).
 */
async function createNamedRoles(sql: Sql, tenantId: string, menus: MenuSeed[]): Promise<void> {
  const named = new Set(menus.flatMap((menu) => menu.roles));
  const roles = DEFAULT_ROLES.filter((role) => named.has(role.roleCode));
  if (roles.length === 0) return;
  const { rows: added } = await sql.query<{ id: string; role_code: string }>(
    `INSERT INTO sys_role (tenant_id, role_code, role_name, role_description)
     SELECT $1, r.code, r.name, r.description
       FROM unnest($2::text[], $3::text[], $4::text[]) AS r(code, name, description)
      WHERE NOT EXISTS (SELECT 1 FROM sys_role s WHERE s.tenant_id = $1 AND s.role_code = r.code)
     RETURNING id::text AS id, role_code`,
    [
      tenantId,
      roles.map((role) => role.roleCode),
      roles.map((role) => role.roleName),
      roles.map((role) => role.roleDescription),
    ],
  );
  const giving = new Set(menus.map((menu) => menu.menuCode));
  for (const role of added) {
    const earlier = DEFAULT_MENUS.filter(
      (menu) => menu.roles.includes(role.role_code) && !giving.has(menu.menuCode),
    ).map((menu) => menu.menuCode);
    if (earlier.length === 0) continue;
    await sql.query(
      `INSERT INTO sys_role_menu (tenant_id, role_id, menu_id)
       SELECT $1, $2, m.id FROM sys_menu m
        WHERE m.tenant_id = $1 AND m.menu_code = ANY($3::text[])
          AND EXISTS (SELECT 1 FROM sys_menu_default g
                       WHERE g.tenant_id = $1 AND g.menu_code = m.menu_code)`,
      [tenantId, role.id, earlier],
    );
    await sql.query(
      `INSERT INTO sys_role_menu_button (tenant_id, role_id, button_id)
       SELECT $1, $2, b.id FROM sys_menu_button b JOIN sys_menu m ON m.id = b.menu_id
        WHERE b.tenant_id = $1 AND m.menu_code = ANY($3::text[]) AND b.button_code = ANY($4::text[])
       ON CONFLICT DO NOTHING`,
      [tenantId, role.id, earlier, DEFAULT_ROLE_GRANTS[role.role_code]?.buttons ?? []],
    );
  }
}
