import { ROLE_ADMIN, type Authority, type MenuNode } from '@shuili/contract';
import type { Sql } from '../../db/database';

interface MenuRow {
  id: string;
  menu_code: string;
  menu_name: string;
  menu_icon: string | null;
  menu_path: string;
  menu_component: string | null;
  menu_sequence: number;
  menu_parent: string | null;
  granted: boolean;
}

/** Nests rows into a tree ordered by sequence; orphans (parent filtered out) become roots. */
export function buildMenuTree(rows: MenuRow[]): MenuNode[] {
  const nodes = new Map<string, MenuNode>();
  for (const row of rows) {
    nodes.set(row.id, {
      id: row.id,
      menuCode: row.menu_code,
      menuName: row.menu_name,
      menuIcon: row.menu_icon,
      menuPath: row.menu_path,
      menuComponent: row.menu_component,
      menuSequence: row.menu_sequence,
      menuParent: row.menu_parent,
      children: [],
    });
  }
  const roots: MenuNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.menuParent ? nodes.get(node.menuParent) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  const sort = (list: MenuNode[]) => {
    list.sort((a, b) => a.menuSequence - b.menuSequence || a.menuCode.localeCompare(b.menuCode));
    list.forEach((node) => sort(node.children));
  };
  sort(roots);
  return roots;
}

/**
 * The menus and menu buttons of the caller's active role (ROLE_ADMIN: all enabled ones), with
 * the ancestors of granted menus so the tree stays whole. Runs in the tenant's context.
 */
export async function readAuthority(sql: Sql, activeRole: string): Promise<Authority> {
  const isAdmin = activeRole === ROLE_ADMIN;
  const { rows } = await sql.query<MenuRow>(
    `SELECT m.id, m.menu_code, m.menu_name, m.menu_icon, m.menu_path, m.menu_component, m.menu_sequence, m.menu_parent,
            ($1 OR EXISTS (SELECT 1 FROM sys_role_menu rm JOIN sys_role r ON r.id = rm.role_id
                            WHERE rm.menu_id = m.id AND r.role_code = $2 AND r.status = 1)) AS granted
       FROM sys_menu m WHERE m.menu_status = 1`,
    [isAdmin, activeRole],
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const keep = new Set<string>();
  for (const row of rows) {
    if (!row.granted) continue;
    for (
      let at: MenuRow | undefined = row;
      at && !keep.has(at.id);
      at = at.menu_parent ? byId.get(at.menu_parent) : undefined
    ) {
      keep.add(at.id);
    }
  }
  const buttons = await sql.query<{ button_code: string }>(
    `SELECT b.button_code FROM sys_menu_button b
      WHERE $1 OR EXISTS (SELECT 1 FROM sys_role_menu_button rb JOIN sys_role r ON r.id = rb.role_id
                           WHERE rb.button_id = b.id AND r.role_code = $2 AND r.status = 1)
      ORDER BY b.button_code`,
    [isAdmin, activeRole],
  );
  return {
    menu: buildMenuTree(rows.filter((row) => keep.has(row.id))),
    menuButton: buttons.rows.map((row) => row.button_code),
  };
}
