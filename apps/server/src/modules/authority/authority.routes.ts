import {
  menuButtonNodeSchema,
  ROLE_ADMIN,
  orgUserNodeSchema,
  roleGrantSchemas,
  type MenuButtonNode,
  type OrgUserNode,
} from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database, Sql } from '../../db/database';
import { checkDataFields, dataFieldsOfMenu } from '../../entity/data-field.service';
import { AppError } from '../../http/app-error';
import { envelopeOf, ok } from '../../http/envelope';
import { authOf } from '../../http/request-context';
import { checkManageable } from '../admin/scope-confinement';
import { replaceLinkSet, requireRow } from './link-set';
import type { UrlGrantService } from './url-grant.service';

const granted = { permission: 'granted' as const };
const idQuery = (name: string) =>
  z.object({ [name]: z.string().regex(/^\d{1,18}$/, { error: 'validation.invalid' }) });
const idList = envelopeOf(z.array(z.string()));
const done = envelopeOf(z.null());

/** Grant lists read by one id: GET <url>?<param>= answers the ids on the other side. */
const GRANT_READS = [
  {
    url: '/api/admin/sysmenu/queryMenuIdByRoleId',
    param: 'roleId',
    summary: 'The menus granted to a role',
    table: 'sys_role_menu',
    by: 'role_id',
    of: 'menu_id',
  },
  {
    url: '/api/admin/sysurl/queryRoleIdByUrlId',
    param: 'urlId',
    summary: 'The roles granted a URL',
    table: 'sys_role_url',
    by: 'url_id',
    of: 'role_id',
  },
  {
    url: '/api/admin/sysurl/queryUrlIdByRoleId',
    param: 'roleId',
    summary: 'The URLs granted to a role',
    table: 'sys_role_url',
    by: 'role_id',
    of: 'url_id',
  },
] as const;

/** Grant lists replaced as a whole: the body's list replaces what the fixed side held. */
const GRANT_WRITES = [
  {
    url: '/api/admin/sysuser/authorizeRoleToUser',
    summary: "Replaces a user's roles",
    body: roleGrantSchemas.authorizeRoleToUser,
    table: 'sys_user_role',
    fixed: ['userId', 'sys_user', 'user_id'],
    list: ['roleIds', 'role_id'],
    changesUsers: 'fixed',
  },
  {
    url: '/api/admin/sysrole/authorizeUserToRole',
    summary: 'Replaces the users holding a role',
    body: roleGrantSchemas.authorizeUserToRole,
    table: 'sys_user_role',
    fixed: ['roleId', 'sys_role', 'role_id'],
    list: ['userIds', 'user_id'],
    everyUserKeepsARole: true,
    changesUsers: 'list',
  },
  {
    url: '/api/admin/sysmenu/authorizeMenuToRole',
    summary: "Replaces a role's menus (send checked and half-checked parents alike)",
    body: roleGrantSchemas.authorizeMenuToRole,
    table: 'sys_role_menu',
    fixed: ['roleId', 'sys_role', 'role_id'],
    list: ['menuIds', 'menu_id'],
  },
  {
    url: '/api/admin/sysurl/authorizeUrlToRole',
    summary: "Replaces a role's URLs",
    body: roleGrantSchemas.authorizeUrlToRole,
    table: 'sys_role_url',
    fixed: ['roleId', 'sys_role', 'role_id'],
    list: ['urlIds', 'url_id'],
  },
  {
    url: '/api/admin/sysurl/authorizeRoleToUrl',
    summary: 'Replaces the roles granted a URL',
    body: roleGrantSchemas.authorizeRoleToUrl,
    table: 'sys_role_url',
    fixed: ['urlId', 'sys_url', 'url_id'],
    list: ['roleIds', 'role_id'],
  },
] as const;

async function idsOf(sql: Sql, text: string, params: unknown[]): Promise<string[]> {
  const { rows } = await sql.query<{ id: string }>(text, params);
  return rows.map((row) => row.id);
}

/**
 * The authority calls of spec §7 around roles: which menus, buttons, URLs, data fields and
 * users a role has, each readable and replaceable as a whole list.
 */
export async function authorityRoutes(
  fastify: FastifyInstance,
  deps: { db: Database; grants: UrlGrantService },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const inTenant = <T>(
    request: Parameters<typeof authOf>[0],
    work: (sql: Sql, tenantId: string) => Promise<T>,
  ) => {
    const auth = authOf(request);
    return deps.db.tenant(auth, (sql) => work(sql, auth.tenantId));
  };
  const tags = ['authority'];

  app.get('/api/admin/sysrole/queryRoleCode', {
    config: granted,
    schema: {
      tags,
      summary: 'Whether a role code is taken in the tenant',
      querystring: z.object({ roleCode: z.string().trim().min(1).max(64) }),
      response: { 200: envelopeOf(z.object({ exists: z.boolean() })) },
    },
    handler: async (request) =>
      ok({
        exists:
          (
            await inTenant(request, (sql) =>
              idsOf(sql, 'SELECT id::text AS id FROM sys_role WHERE role_code = $1', [
                request.query.roleCode,
              ]),
            )
          ).length > 0,
      }),
  });

  const roleOption = z.object({ id: z.string(), roleCode: z.string(), roleName: z.string() });
  app.get('/api/admin/sysrole/queryRoleNameCheckbox', {
    config: granted,
    schema: {
      tags,
      summary: 'Every enabled role, as checkbox options',
      response: { 200: envelopeOf(z.array(roleOption)) },
    },
    handler: async (request) =>
      ok(
        await inTenant(
          request,
          async (sql) =>
            (
              await sql.query<z.infer<typeof roleOption>>(
                'SELECT id::text AS id, role_code AS "roleCode", role_name AS "roleName" FROM sys_role WHERE status = 1 ORDER BY role_code',
              )
            ).rows,
        ),
      ),
  });

  const optionalId = z
    .string()
    .regex(/^\d{1,18}$/, { error: 'validation.invalid' })
    .optional();
  app.get('/api/admin/sysrole/queryRoleName', {
    config: granted,
    schema: {
      tags,
      summary:
        'The roles held (assign=true, the default) or not held (assign=false) by a user (userId), by the users holding a post (postCode), or by a user while holding that post (both: none when they do not hold it). At least one of userId and postCode',
      querystring: z.object({
        userId: optionalId,
        postCode: z.string().trim().min(1).max(64).optional(),
        assign: z.enum(['true', 'false']).default('true'),
      }),
      response: { 200: envelopeOf(z.array(roleOption)) },
    },
    handler: async (request) => {
      const { userId, postCode, assign } = request.query;
      if (!userId && !postCode)
        throw new AppError(400, 'validation.required', {
          fields: [{ field: 'userId', key: 'validation.required' }],
        });
      return ok(
        await inTenant(
          request,
          async (sql) =>
            (
              await sql.query<z.infer<typeof roleOption>>(
                // The users asked about: the one named, those holding the post, or both at once.
                `SELECT r.id::text AS id, r.role_code AS "roleCode", r.role_name AS "roleName" FROM sys_role r
                WHERE EXISTS (SELECT 1 FROM sys_user_role ur WHERE ur.role_id = r.id
                                 AND ($1::bigint IS NULL OR ur.user_id = $1::bigint)
                                 AND ($3::text IS NULL OR EXISTS (
                                       SELECT 1 FROM sys_user_post up JOIN sys_post p ON p.id = up.post_id
                                        WHERE up.user_id = ur.user_id AND p.post_code = $3))) = $2
                ORDER BY r.role_code`,
                [userId ?? null, assign === 'true', postCode ?? null],
              )
            ).rows,
        ),
      );
    },
  });

  for (const read of GRANT_READS) {
    app.get(read.url, {
      config: granted,
      schema: {
        tags,
        summary: read.summary,
        querystring: idQuery(read.param),
        response: { 200: idList },
      },
      handler: async (request) =>
        ok(
          await inTenant(request, (sql) =>
            idsOf(
              sql,
              `SELECT ${read.of}::text AS id FROM ${read.table} WHERE ${read.by} = $1 ORDER BY 1`,
              [(request.query as Record<string, string>)[read.param]],
            ),
          ),
        ),
    });
  }

  for (const write of GRANT_WRITES) {
    const [fixedField, fixedTable, fixedColumn] = write.fixed;
    const [listField, listColumn] = write.list;
    app.post(write.url, {
      config: granted,
      schema: { tags, summary: write.summary, body: write.body, response: { 200: done } },
      handler: async (request) => {
        const body = request.body as unknown as Record<string, unknown>;
        const fixedId = String(body[fixedField]);
        await inTenant(request, async (sql, tenantId) => {
          await requireRow(sql, fixedTable, fixedId, fixedField);
          if ('changesUsers' in write)
            await checkManageable(
              sql,
              authOf(request),
              write.changesUsers === 'fixed'
                ? [fixedId]
                : await usersChanged(sql, fixedId, body[listField] as string[]),
              write.changesUsers === 'fixed' ? fixedField : listField,
            );
          await replaceLinkSet(sql, tenantId, {
            table: write.table,
            fixedColumn,
            fixedId,
            listColumn,
            listIds: body[listField] as string[],
            field: listField,
          });
          if ('everyUserKeepsARole' in write) {
            // A user must keep at least one role (spec §5).
            const { rows } = await sql.query<{ n: number }>(
              'SELECT count(*)::int AS n FROM sys_user u WHERE NOT EXISTS (SELECT 1 FROM sys_user_role ur WHERE ur.user_id = u.id)',
            );
            if (rows[0]!.n > 0) throw new AppError(409, 'conflict.userWithoutRole');
          }
        });
        deps.grants.invalidate();
        return ok(null);
      },
    });
  }

  app.get('/api/admin/sysmenu/querySysMenuButtonTree', {
    config: granted,
    schema: {
      tags,
      summary: 'The menu tree with each menu’s buttons',
      response: { 200: envelopeOf(z.array(menuButtonNodeSchema)) },
    },
    handler: async (request) => ok(await inTenant(request, menuButtonTree)),
  });

  const button = z.object({
    id: z.string(),
    buttonCode: z.string(),
    buttonName: z.string(),
    menuId: z.string(),
    menuCode: z.string(),
  });
  app.get('/api/admin/sysmenu/queryMenuButtonCheckbox', {
    config: granted,
    schema: {
      tags,
      summary:
        'The buttons of a menu (menuId), or of every menu without it, as checkbox options; each names its menu',
      querystring: z.object({ menuId: optionalId }),
      response: { 200: envelopeOf(z.array(button)) },
    },
    handler: async (request) =>
      ok(
        await inTenant(
          request,
          async (sql) =>
            (
              await sql.query<z.infer<typeof button>>(
                `SELECT b.id::text AS id, b.button_code AS "buttonCode", b.button_name AS "buttonName",
                        m.id::text AS "menuId", m.menu_code AS "menuCode"
                   FROM sys_menu_button b JOIN sys_menu m ON m.id = b.menu_id
                  WHERE $1::bigint IS NULL OR b.menu_id = $1::bigint
                  ORDER BY m.menu_sequence, m.menu_code, b.button_code`,
                [request.query.menuId ?? null],
              )
            ).rows,
        ),
      ),
  });

  app.get('/api/admin/sysmenu/queryCheckedMenuButton', {
    config: granted,
    schema: {
      tags,
      summary:
        "The buttons of one menu (by code) granted to a role: the role being authorised (roleId), or without it the caller's active role (ROLE_ADMIN holds every button)",
      querystring: z.object({ roleId: optionalId, menuCode: z.string().trim().min(1).max(64) }),
      response: { 200: idList },
    },
    handler: async (request) => {
      const { roleId, menuCode } = request.query;
      const auth = authOf(request);
      return ok(
        await inTenant(request, (sql) =>
          roleId
            ? idsOf(
                sql,
                `SELECT rb.button_id::text AS id FROM sys_role_menu_button rb JOIN sys_menu_button b ON b.id = rb.button_id JOIN sys_menu m ON m.id = b.menu_id
                  WHERE rb.role_id = $1 AND m.menu_code = $2 ORDER BY 1`,
                [roleId, menuCode],
              )
            : // What the caller holds, as their authority reads it (authority.repo.ts).
              idsOf(
                sql,
                `SELECT b.id::text AS id FROM sys_menu_button b JOIN sys_menu m ON m.id = b.menu_id
                  WHERE m.menu_code = $2
                    AND ($3 OR EXISTS (SELECT 1 FROM sys_role_menu_button rb JOIN sys_role r ON r.id = rb.role_id
                                        WHERE rb.button_id = b.id AND r.role_code = $1 AND r.status = 1))
                  ORDER BY 1`,
                [auth.activeRole, menuCode, auth.activeRole === ROLE_ADMIN],
              ),
        ),
      );
    },
  });

  app.get('/api/admin/sysmenu/queryMenuButtonByRoleCode', {
    config: granted,
    schema: {
      tags,
      summary: 'Every button granted to a role (by code)',
      querystring: z.object({ roleCode: z.string().trim().min(1).max(64) }),
      response: { 200: idList },
    },
    handler: async (request) =>
      ok(
        await inTenant(request, (sql) =>
          idsOf(
            sql,
            'SELECT rb.button_id::text AS id FROM sys_role_menu_button rb JOIN sys_role r ON r.id = rb.role_id WHERE r.role_code = $1 ORDER BY 1',
            [request.query.roleCode],
          ),
        ),
      ),
  });

  app.post('/api/admin/sysmenu/authorizeMenuButtonToRole', {
    config: granted,
    schema: {
      tags,
      summary: "Replaces a role's buttons (of one menu when menuId is given)",
      body: roleGrantSchemas.authorizeMenuButtonToRole,
      response: { 200: done },
    },
    handler: async (request) => {
      const { roleId, buttonIds, menuId } = request.body;
      await inTenant(request, async (sql, tenantId) => {
        await requireRow(sql, 'sys_role', roleId, 'roleId');
        await replaceLinkSet(sql, tenantId, {
          table: 'sys_role_menu_button',
          fixedColumn: 'role_id',
          fixedId: roleId,
          listColumn: 'button_id',
          listIds: buttonIds,
          field: 'buttonIds',
          only: menuId
            ? {
                condition: 'l.button_id IN (SELECT id FROM sys_menu_button WHERE menu_id = $3)',
                value: menuId,
              }
            : undefined,
        });
        if (menuId) {
          const { rows } = await sql.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM sys_menu_button WHERE id = ANY($1::bigint[]) AND menu_id <> $2',
            [buttonIds, menuId],
          );
          if (rows[0]!.n > 0)
            throw new AppError(400, 'validation.refMissing', {
              fields: [{ field: 'buttonIds', key: 'validation.refMissing' }],
            });
        }
      });
      return ok(null);
    },
  });

  const dataField = z.object({ field: z.string(), label: z.string() });
  app.get('/api/admin/sysmenu/queryDataFieldByMenuCode', {
    config: granted,
    schema: {
      tags,
      summary: 'The data fields of the screen behind a menu, for data permissions',
      querystring: z.object({ menuCode: z.string().trim().min(1).max(64) }),
      response: { 200: envelopeOf(z.array(dataField)) },
    },
    handler: async (request) =>
      ok(
        [...dataFieldsOfMenu(request.query.menuCode)].map(([field, declared]) => ({
          field,
          label: declared.label[request.lang],
        })),
      ),
  });

  app.post('/api/admin/sysmenu/deleteDataField', {
    config: granted,
    schema: {
      tags,
      summary: 'Removes a data permission rule',
      querystring: idQuery('id'),
      response: { 200: done },
    },
    handler: async (request) => {
      const removed = await inTenant(request, (sql) =>
        idsOf(sql, 'DELETE FROM sys_data_permission WHERE id = $1 RETURNING id::text AS id', [
          request.query.id,
        ]),
      );
      if (removed.length === 0) throw new AppError(404, 'error.recordNotFound');
      return ok(null);
    },
  });

  app.post('/api/admin/sysmenu/authorizeMenuDataToRole', {
    config: granted,
    schema: {
      tags,
      summary: 'Sets the data fields a role may see on a menu’s screen',
      body: roleGrantSchemas.authorizeMenuDataToRole,
      response: { 200: done },
    },
    handler: async (request) => {
      const { roleCode, menuCode } = request.body;
      const dataFields = checkDataFields(menuCode, request.body.dataFields);
      await inTenant(request, async (sql, tenantId) => {
        const role = await idsOf(sql, 'SELECT id::text AS id FROM sys_role WHERE role_code = $1', [
          roleCode,
        ]);
        if (role.length === 0)
          throw new AppError(400, 'validation.refMissing', {
            fields: [{ field: 'roleCode', key: 'validation.refMissing' }],
          });
        await sql.query(
          `INSERT INTO sys_data_permission (tenant_id, role_code, menu_code, data_fields) VALUES ($1, $2, $3, $4)
           ON CONFLICT (tenant_id, role_code, menu_code) DO UPDATE SET data_fields = EXCLUDED.data_fields, updated_at = now()`,
          [tenantId, roleCode, menuCode, dataFields],
        );
      });
      return ok(null);
    },
  });

  app.get('/api/admin/sysorg/queryOrgUserTree', {
    config: granted,
    schema: {
      tags,
      summary:
        'Organisations with their users; with roleId, users say whether they hold the role (assign=true lists only those)',
      querystring: z.object({
        roleId: z
          .string()
          .regex(/^\d{1,18}$/)
          .optional(),
        assign: z.enum(['true', 'false']).optional(),
      }),
      response: { 200: envelopeOf(z.array(orgUserNodeSchema)) },
    },
    handler: async (request) =>
      ok(
        await inTenant(request, (sql) =>
          orgUserTree(sql, request.query.roleId, request.query.assign),
        ),
      ),
  });
}

async function menuButtonTree(sql: Sql): Promise<MenuButtonNode[]> {
  const menus = await sql.query<{
    id: string;
    menu_code: string;
    menu_name: string;
    menu_parent: string | null;
  }>(
    'SELECT id::text AS id, menu_code, menu_name, menu_parent::text AS menu_parent FROM sys_menu ORDER BY menu_sequence, menu_code',
  );
  const buttons = await sql.query<{
    id: string;
    menu_id: string;
    button_code: string;
    button_name: string;
  }>(
    'SELECT id::text AS id, menu_id::text AS menu_id, button_code, button_name FROM sys_menu_button ORDER BY button_code',
  );
  const nodes = new Map<string, MenuButtonNode>();
  for (const menu of menus.rows) {
    nodes.set(menu.id, {
      id: menu.id,
      menuCode: menu.menu_code,
      menuName: menu.menu_name,
      menuParent: menu.menu_parent,
      buttons: [],
      children: [],
    });
  }
  for (const row of buttons.rows)
    nodes
      .get(row.menu_id)
      ?.buttons.push({ id: row.id, buttonCode: row.button_code, buttonName: row.button_name });
  const roots: MenuButtonNode[] = [];
  for (const node of nodes.values())
    (node.menuParent && nodes.get(node.menuParent)
      ? nodes.get(node.menuParent)!.children
      : roots
    ).push(node);
  return roots;
}

async function orgUserTree(
  sql: Sql,
  roleId: string | undefined,
  assign: string | undefined,
): Promise<OrgUserNode[]> {
  const orgs = await sql.query<{ id: string; org_name: string; org_parent: string | null }>(
    'SELECT id::text AS id, org_name, org_parent::text AS org_parent FROM sys_org ORDER BY org_sequence, id',
  );
  const users = await sql.query<{
    id: string;
    nickname: string;
    username: string;
    org_id: string | null;
    assigned: boolean;
  }>(
    `SELECT u.id::text AS id, u.nickname, u.username, u.org_id::text AS org_id,
            EXISTS (SELECT 1 FROM sys_user_role ur WHERE ur.user_id = u.id AND ur.role_id = $1) AS assigned
       FROM sys_user u ORDER BY u.username`,
    [roleId ?? null],
  );
  const nodes = new Map<string, OrgUserNode>();
  for (const org of orgs.rows)
    nodes.set(org.id, {
      key: `org-${org.id}`,
      title: org.org_name,
      kind: 'org',
      id: org.id,
      children: [],
    });
  const roots: OrgUserNode[] = [];
  for (const org of orgs.rows) {
    const node = nodes.get(org.id)!;
    (org.org_parent && nodes.get(org.org_parent)
      ? nodes.get(org.org_parent)!.children
      : roots
    ).push(node);
  }
  for (const user of users.rows) {
    if (assign !== undefined && roleId && user.assigned !== (assign === 'true')) continue;
    const node: OrgUserNode = {
      key: `user-${user.id}`,
      title: `${user.nickname} (${user.username})`,
      kind: 'user',
      id: user.id,
      children: [],
    };
    if (roleId) node.assigned = user.assigned;
    (user.org_id && nodes.get(user.org_id) ? nodes.get(user.org_id)!.children : roots).push(node);
  }
  return roots;
}

/** The users a new list of a role's holders adds or removes: each one's roles change. */
async function usersChanged(sql: Sql, roleId: string, userIds: string[]): Promise<string[]> {
  const { rows } = await sql.query<{ id: string }>(
    'SELECT user_id::text AS id FROM sys_user_role WHERE role_id = $1',
    [roleId],
  );
  const before = new Set(rows.map((row) => row.id));
  const after = new Set(userIds.map(String));
  return [...before, ...after].filter((id) => before.has(id) !== after.has(id));
}
