import {
  authoritySchema,
  dictLabel,
  dictOptionSchema,
  orgSchema,
  roleGrantSchemas,
  sysRegionEntity,
  zoneNodeSchema,
  type DictOption,
  type Lang,
  type ZoneNode,
  v,
} from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database, Sql } from '../../db/database';
import { AppError } from '../../http/app-error';
import { envelopeOf, ok, page, pageOf } from '../../http/envelope';
import { authOf } from '../../http/request-context';
import { checkManageable, checkScopeGiven } from './scope-confinement';
import { readAuthority } from '../account/authority.repo';
import { callParams, optionalParam, paramSchemas } from '../account/call-params';
import { namedUser } from '../account/named-user';
import { replaceLinkSet, requireRow } from '../authority/link-set';

const signedIn = { permission: 'authenticated' as const };
const granted = { permission: 'granted' as const };
const optionList = envelopeOf(z.array(dictOptionSchema));
const idParam = z.string().regex(/^\d{1,18}$/, { error: 'validation.invalid' });

async function dictionary(sql: Sql, dictType: string, lang: Lang): Promise<DictOption[]> {
  const { rows } = await sql.query<{ dict_name: string; dict_value: string }>(
    'SELECT dict_name, dict_value FROM sys_dict WHERE dict_type = $1 AND status = 1 ORDER BY dict_sequence, id',
    [dictType],
  );
  return rows.map((row) => ({
    dictName: dictLabel(row.dict_name, lang),
    dictValue: row.dict_value,
  }));
}

/**
 * Zones as a tree; with `only`, just those zones and (unless `ancestors` is off) the ancestors
 * that hold them. Without the ancestors, a zone whose parent is left out is a root.
 */
async function zoneTree(
  sql: Sql,
  only: Set<string> | undefined,
  ancestors = true,
): Promise<ZoneNode[]> {
  const { rows } = await sql.query<{
    id: string;
    zone_name: string;
    zone_code: string;
    zone_parent: string | null;
  }>(
    'SELECT id::text AS id, zone_name, zone_code, zone_parent::text AS zone_parent FROM sys_zone WHERE status = 1 ORDER BY zone_sequence, id',
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const keep = new Set<string>();
  for (const row of rows) {
    if (only && !only.has(row.id)) continue;
    for (
      let at: typeof row | undefined = row;
      at && !keep.has(at.id);
      at = at.zone_parent && ancestors ? byId.get(at.zone_parent) : undefined
    )
      keep.add(at.id);
  }
  const nodes = new Map<string, ZoneNode>();
  for (const row of rows)
    if (keep.has(row.id))
      nodes.set(row.id, {
        id: row.id,
        zoneName: row.zone_name,
        zoneCode: row.zone_code,
        children: [],
      });
  const roots: ZoneNode[] = [];
  for (const row of rows) {
    const node = nodes.get(row.id);
    if (!node) continue;
    const parent = row.zone_parent ? nodes.get(row.zone_parent) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

/**
 * Look-ups every screen needs whatever the role (dictionaries, the caller's own organisations,
 * zones, posts and menus), plus zone assignment. The look-ups only read what a signed-in user
 * of the tenant may see anyway, so they need no URL grant.
 */
export async function lookupRoutes(fastify: FastifyInstance, deps: { db: Database }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const inTenant = <T>(request: Parameters<typeof authOf>[0], work: (sql: Sql) => Promise<T>) =>
    deps.db.tenant(authOf(request), work);

  app.get('/api/admin/sysdict/queryDictByDictType', {
    config: signedIn,
    schema: {
      tags: ['SysDict'],
      summary: 'The enabled values of one dictionary, in order, names translated',
      querystring: z.object({ dictType: z.string().trim().min(1).max(64) }),
      response: { 200: optionList },
    },
    handler: async (request) =>
      ok(await inTenant(request, (sql) => dictionary(sql, request.query.dictType, request.lang))),
  });

  for (const [url, dictType, tag] of [
    ['/api/admin/sysorg/queryOrgType', 'org_type', 'SysOrg'],
    ['/api/notification/notification/queryNotificationType', 'notification_type', 'Notification'],
    [
      '/api/notification/notification/queryNotificationPriority',
      'notification_priority',
      'Notification',
    ],
  ] as const) {
    app.get(url, {
      config: signedIn,
      schema: { tags: [tag], summary: `The ${dictType} dictionary`, response: { 200: optionList } },
      handler: async (request) =>
        ok(await inTenant(request, (sql) => dictionary(sql, dictType, request.lang))),
    });
  }

  app.get('/api/admin/sysregion/queryRegionType', {
    config: signedIn,
    schema: {
      tags: ['SysRegion'],
      summary: 'The levels of administrative divisions',
      response: { 200: optionList },
    },
    handler: async (request) =>
      ok(
        (sysRegionEntity.fields.regionType!.options ?? []).map((option) => ({
          dictName: option.label[request.lang],
          dictValue: option.value,
        })),
      ),
  });

  app.get('/api/account/sysuserdetail/queryCurrentOrgs', {
    config: signedIn,
    schema: {
      tags: ['account'],
      summary: "The organisations of the caller's tenant, paged (the session's organisation list)",
      querystring: z.object({
        // Bounded: the offset it makes must fit PostgreSQL's bigint.
        currentPage: z.coerce.number().int().min(1).max(1_000_000).default(1),
        pageSize: z.coerce.number().int().min(1).max(10_000).default(10_000),
      }),
      response: { 200: pageOf(orgSchema) },
    },
    handler: async (request) => {
      const { currentPage, pageSize } = request.query;
      const { list, total } = await inTenant(request, async (sql) => {
        const count = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM sys_org');
        const rows = await sql.query<z.infer<typeof orgSchema>>(
          `SELECT id::text AS id, org_name AS "orgName", org_type AS "orgType", org_description AS "orgDescription",
                  org_sequence AS "orgSequence", org_parent::text AS "orgParent"
             FROM sys_org ORDER BY org_sequence, id LIMIT $1 OFFSET $2`,
          [pageSize, (currentPage - 1) * pageSize],
        );
        return { list: rows.rows, total: count.rows[0]!.n };
      });
      return page(list, total, currentPage, pageSize);
    },
  });

  app.get('/api/admin/syszone/queryCurrentZones', {
    config: signedIn,
    schema: {
      tags: ['SysZone'],
      summary:
        "The caller's zones as a tree (a caller without assigned zones: every zone), for the monitoring screens",
      response: { 200: envelopeOf(z.array(zoneNodeSchema)) },
    },
    handler: async (request) => {
      // The same zones the server confines the caller's devices to (AuthContext.zoneIds).
      const zoneIds = authOf(request).zoneIds;
      return ok(
        await inTenant(request, (sql) =>
          zoneTree(sql, zoneIds === null ? undefined : new Set(zoneIds)),
        ),
      );
    },
  });

  app.get('/api/admin/syszone/queryAssignedZoneIds', {
    config: granted,
    schema: {
      tags: ['SysZone'],
      summary:
        "A user's assigned zones: by sysUserId (spec §7) as a tree of zones with id and children (only assigned zones; one whose parent is not assigned is a root), by userId as a list of ids (the console's form)",
      querystring: z.object({
        sysUserId: optionalParam(idParam),
        userId: optionalParam(idParam),
      }),
      response: { 200: envelopeOf(z.union([z.array(zoneNodeSchema), z.array(z.string())])) },
    },
    handler: async (request) => {
      const { sysUserId, userId } = request.query;
      const user = sysUserId ?? userId;
      if (!user)
        throw new AppError(400, 'validation.required', {
          fields: [{ field: 'sysUserId', key: 'validation.required' }],
        });
      if (sysUserId && userId && sysUserId !== userId)
        throw new AppError(400, 'validation.usersDiffer', {
          fields: [{ field: 'sysUserId', key: 'validation.usersDiffer' }],
        });
      return ok(
        await inTenant(request, async (sql) => {
          const ids = (
            await sql.query<{ id: string }>(
              'SELECT zone_id::text AS id FROM sys_user_zone WHERE user_id = $1 ORDER BY 1',
              [user],
            )
          ).rows.map((row) => row.id);
          return sysUserId ? zoneTree(sql, new Set(ids), false) : ids;
        }),
      );
    },
  });

  app.post('/api/admin/syszone/assignZone', {
    config: granted,
    schema: {
      tags: ['SysZone'],
      summary: "Replaces a user's zones (params userId and zoneIds, comma-separated)",
      querystring: roleGrantSchemas.assignZone.partial(),
      body: roleGrantSchemas.assignZone.partial().nullish(),
      response: { 200: envelopeOf(z.null()) },
    },
    handler: async (request) => {
      const input = roleGrantSchemas.assignZone.safeParse({
        ...(request.body ?? {}),
        ...request.query,
      });
      if (!input.success) {
        const field = String(input.error.issues[0]?.path[0] ?? 'userId');
        throw new AppError(400, 'validation.invalid', {
          fields: [{ field, key: 'validation.invalid' }],
        });
      }
      const auth = authOf(request);
      checkScopeGiven(auth, 'zoneIds', input.data.userId, input.data.zoneIds);
      await inTenant(request, async (sql) => {
        await requireRow(sql, 'sys_user', input.data.userId, 'userId');
        await checkManageable(sql, auth, [input.data.userId], 'userId');
        await replaceLinkSet(sql, auth.tenantId, {
          table: 'sys_user_zone',
          fixedColumn: 'user_id',
          fixedId: input.data.userId,
          listColumn: 'zone_id',
          listIds: input.data.zoneIds,
          field: 'zoneIds',
        });
      });
      return ok(null);
    },
  });

  const postOption = z.object({ id: z.string(), postCode: z.string(), postName: z.string() });
  const namedUserQuery = z.object({ userId: optionalParam(idParam) });
  app.get('/api/admin/sysuserpost/queryUserPostOptions', {
    config: signedIn,
    schema: {
      tags: ['SysUserPost'],
      summary:
        "A user's posts, for the navbar's post switch: the caller's, or (ROLE_ADMIN) those of the user named by userId",
      querystring: namedUserQuery,
      response: { 200: envelopeOf(z.array(postOption)) },
    },
    handler: async (request) =>
      ok(
        await inTenant(request, async (sql) => {
          const user = await namedUser(sql, authOf(request), request.query);
          return (
            await sql.query<z.infer<typeof postOption>>(
              `SELECT p.id::text AS id, p.post_code AS "postCode", p.post_name AS "postName" FROM sys_user_post up JOIN sys_post p ON p.id = up.post_id
                WHERE up.user_id = $1 AND p.status = 1 ORDER BY p.post_sequence, p.id`,
              [user.userId],
            )
          ).rows;
        }),
      ),
  });

  const parentOption = z.object({ id: z.string(), menuCode: z.string(), menuName: z.string() });
  app.get('/api/account/sysuserdetail/queryParentMenu', {
    config: signedIn,
    schema: {
      tags: ['account'],
      summary:
        "The top-level menus for the navbar's parent-menu switch: of the caller's active role, or (ROLE_ADMIN) of the user named by userId",
      querystring: namedUserQuery,
      response: { 200: envelopeOf(z.array(parentOption)) },
    },
    handler: async (request) => {
      const authority = await inTenant(request, async (sql) =>
        readAuthority(sql, (await namedUser(sql, authOf(request), request.query)).role),
      );
      return ok(
        authority.menu.map((menu) => ({
          id: menu.id,
          menuCode: menu.menuCode,
          menuName: menu.menuName,
        })),
      );
    },
  });

  const switchMenuParams = {
    username: optionalParam(v.username()),
    userId: optionalParam(idParam),
    parentId: optionalParam(idParam),
    postCode: optionalParam(z.string().trim().max(64)),
  };
  app.post('/api/account/sysuserdetail/switchMenu', {
    config: signedIn,
    schema: {
      tags: ['account'],
      summary:
        'The menu narrowed to one parent menu and checked against the chosen post (spec §4 switch). Params (query, form or JSON): username and userId name whose menu (the caller; another user of the tenant only for ROLE_ADMIN, seen with their first enabled role), parentId, postCode',
      ...paramSchemas(switchMenuParams),
      response: { 200: envelopeOf(authoritySchema) },
    },
    handler: async (request) => {
      const params = callParams(z.object(switchMenuParams), request);
      return ok(
        await inTenant(request, async (sql) => {
          const user = await namedUser(sql, authOf(request), params);
          if (params.postCode) {
            const { rows } = await sql.query(
              'SELECT 1 FROM sys_user_post up JOIN sys_post p ON p.id = up.post_id WHERE up.user_id = $1 AND p.post_code = $2',
              [user.userId, params.postCode],
            );
            if (rows.length === 0)
              throw new AppError(400, 'validation.refMissing', {
                fields: [{ field: 'postCode', key: 'validation.refMissing' }],
              });
          }
          const authority = await readAuthority(sql, user.role);
          return params.parentId
            ? { ...authority, menu: authority.menu.filter((menu) => menu.id === params.parentId) }
            : authority;
        }),
      );
    },
  });
}
