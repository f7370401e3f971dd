import {
  createSchemaOf,
  entityCalls,
  idListSchema,
  idSchema,
  label,
  querySchemaOf,
  rowSchemaOf,
  sortableFields,
  updateSchemaOf,
  type EntityDef,
} from '@shuili/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database, Sql } from '../db/database';
import { AppError, forbidden, notFound } from '../http/app-error';
import { envelopeOf, ok, page, pageOf } from '../http/envelope';
import { authOf } from '../http/request-context';
import { sanitizeRichTextFields } from '../http/rich-text';
import { hasDataPermissions, type DataFieldService } from './data-field.service';
import { translateDbError } from './entity-errors';
import type { EntityContext, EntityHooks } from './entity-hooks';
import { entityRepo, statusField, type ListFilter, type Row } from './entity-repo';
import { shapeRow } from './entity-rows';
import { registerEntityExports } from './entity-exports';
import type { PlatformTenants } from './platform-tenants';
import { treeParentColumn } from './entity-sql';
import { readableFields, type FieldGrants } from './field-grants';

export interface EntityRouteDeps {
  db: Database;
  dataFields: DataFieldService;
  platform: PlatformTenants;
  /** Fields with a read grant (FieldDef.readGrant) reach only roles holding it. */
  grants: FieldGrants;
}

type Query = Record<string, unknown> & {
  currentPage: number;
  pageSize: number;
  sort?: string;
  order?: 'ascend' | 'descend';
  parentId?: string;
};

/** Splits a validated query into the declared filters (blank ones dropped). */
export function filterOf(
  entity: EntityDef,
  query: Query,
  visible: ReadonlySet<string> | undefined,
): ListFilter {
  const filters: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    const field = name.replace(/(From|To)$/, '');
    const declared = entity.fields[name] ?? entity.fields[field];
    if (!declared?.search) continue;
    // A field the role may not see cannot be probed by filtering on it either.
    if (visible && !visible.has(entity.fields[name] ? name : field)) continue;
    filters[name] = String(value);
  }
  return { filters, parentId: entity.tree ? query.parentId : undefined };
}

/**
 * Mounts the spec's generic calls of one entity (query, add, update, delete, status, tree,
 * exports) with validation, tenancy, URL permissions, data permissions and OpenAPI.
 */
export function mountEntity(
  fastify: FastifyInstance,
  entity: EntityDef,
  deps: EntityRouteDeps,
  hooks: EntityHooks = {},
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const calls = entityCalls(entity);
  const row = rowSchemaOf(entity);
  const query = querySchemaOf(entity);
  const tags = [entity.name];
  // "id" names the record being changed, whichever entity it is.
  const fieldLabels = { id: { label: label('Record', '记录', '記錄') }, ...entity.fields };
  const config = { permission: 'granted' as const, fieldLabels };

  /** Runs work in the right context: the caller's tenant (RLS) or, for platform data, as owner. */
  async function inScope<T>(
    request: FastifyRequest,
    write: boolean,
    work: (ctx: EntityContext) => Promise<T>,
  ): Promise<T> {
    const auth = authOf(request);
    const platformOnly = entity.scope === 'platform' || (entity.scope === 'shared' && write);
    if (platformOnly && !(await deps.platform.isPlatform(auth.tenantId)))
      throw forbidden('auth.platformOnly');
    const result =
      entity.scope === 'tenant'
        ? await deps.db.tenant(auth, (sql) =>
            work({ sql, auth, lang: request.lang, tenantId: auth.tenantId }),
          )
        : await deps.db.system((sql) => work({ sql, auth, lang: request.lang, tenantId: null }));
    if (write) hooks.afterCommit?.();
    return result;
  }

  const visibleFor = async (request: FastifyRequest, sql: Sql) => {
    const auth = authOf(request);
    const visible = hasDataPermissions(entity)
      ? await deps.dataFields.visible(sql, auth.activeRole, entity.menuCode)
      : undefined;
    return readableFields(entity, visible, auth, deps.grants);
  };

  async function reread(ctx: EntityContext, id: string): Promise<Row> {
    const [found] = await entityRepo.byIds(ctx.sql, entity, [id]);
    // The written row as it stands, less what the writer's role may not read elsewhere either.
    return shapeRow(found!, await readableFields(entity, undefined, ctx.auth, deps.grants));
  }

  app.get(calls.query, {
    config,
    schema: {
      tags,
      summary: `Query ${entity.title.en}, filtered, sorted and paged`,
      querystring: query,
      response: { 200: pageOf(row) },
    },
    handler: async (request) => {
      const params = request.query as Query;
      return inScope(request, false, async (ctx) => {
        const visible = await visibleFor(request, ctx.sql);
        const filter = filterOf(entity, params, visible);
        const sort =
          params.sort && (!visible || visible.has(params.sort) || !entity.fields[params.sort])
            ? params.sort
            : entity.defaultSort.field;
        const order = params.order ?? (params.sort ? 'ascend' : entity.defaultSort.order);
        const { rows, total } = await entityRepo
          .page(ctx.sql, entity, {
            ...filter,
            sort,
            order,
            limit: params.pageSize,
            offset: (params.currentPage - 1) * params.pageSize,
          })
          .catch((error: unknown) => translateDbError(entity, error, 'write'));
        return page(
          rows.map((found) => shapeRow(found, visible)),
          total,
          params.currentPage,
          params.pageSize,
        );
      });
    },
  });

  if (entity.tree) {
    app.get(calls.tree, {
      config,
      schema: {
        tags,
        summary: `One level of the ${entity.title.en} tree (roots without parentId); nodes say whether they have children`,
        querystring: z.object({ parentId: z.string().max(64).optional() }),
        response: { 200: envelopeOf(z.array(row)) },
      },
      handler: async (request) =>
        inScope(request, false, async (ctx) => {
          const visible = await visibleFor(request, ctx.sql);
          const parentId = request.query.parentId ?? '';
          if (
            parentId !== '' &&
            entity.fields[entity.tree!.parent]!.ref &&
            !/^\d{1,18}$/.test(parentId)
          )
            throw new AppError(400, 'validation.invalid', {
              fields: [{ field: 'parentId', key: 'validation.invalid' }],
            });
          const rows = await entityRepo.list(ctx.sql, entity, {
            filters: {},
            parentId,
            sort: entity.tree!.sequence ?? entity.defaultSort.field,
            order: 'ascend',
            limit: 10_000,
            offset: 0,
          });
          return ok(rows.map((found) => shapeRow(found, visible)));
        }),
    });
  }

  if (entity.operations.add) {
    app.post(calls.add, {
      config: { ...config, action: `add:${entity.name}` },
      schema: {
        tags,
        summary: `Add a ${entity.title.en} record`,
        body: createSchemaOf(entity),
        response: { 200: envelopeOf(row.catchall(z.unknown())) },
      },
      handler: async (request) =>
        inScope(request, true, async (ctx) => {
          const values = { ...(request.body as Row) };
          // Rich text is stored sanitised, so no reader ever gets a publisher's script.
          sanitizeRichTextFields(entity, values);
          try {
            const extra = (await hooks.beforeCreate?.(ctx, values)) ?? {};
            const id = hooks.create
              ? await hooks.create(ctx, values)
              : await entityRepo.insert(ctx.sql, entity, values, {
                  ...extra,
                  ...(ctx.tenantId ? { tenant_id: ctx.tenantId } : {}),
                  created_by: ctx.auth.userId,
                  updated_by: ctx.auth.userId,
                });
            await writeLinks(ctx, id, values);
            const shown = (await hooks.afterCreate?.(ctx, id, values)) ?? {};
            await hooks.afterWrite?.(ctx);
            return ok({ ...(await reread(ctx, id)), ...shown });
          } catch (error) {
            translateDbError(entity, error, 'write');
          }
        }),
    });
  }

  async function writeLinks(ctx: EntityContext, id: string, values: Row) {
    for (const [name, field] of Object.entries(entity.fields)) {
      if (field.link && Array.isArray(values[name]))
        await entityRepo.setLinks(
          ctx.sql,
          entity,
          name,
          id,
          values[name] as string[],
          ctx.tenantId,
        );
    }
  }

  if (entity.operations.update) {
    app.put(calls.update, {
      config: { ...config, action: `update:${entity.name}` },
      schema: {
        tags,
        summary: `Update a ${entity.title.en} record (absent fields keep their value)`,
        body: updateSchemaOf(entity),
        response: { 200: envelopeOf(row) },
      },
      handler: async (request) =>
        inScope(request, true, async (ctx) => {
          const { id: givenId, ...values } = request.body as Row & { id?: string };
          sanitizeRichTextFields(entity, values);
          try {
            const id = givenId ?? (await idByKey(ctx, values));
            const parentField = entity.tree?.parent;
            if (parentField && entity.fields[parentField]!.ref && values[parentField]) {
              if (await entityRepo.wouldCycle(ctx.sql, entity, id, String(values[parentField]))) {
                throw new AppError(400, 'validation.treeCycle', {
                  fields: [{ field: parentField, key: 'validation.treeCycle' }],
                });
              }
            }
            const extra = (await hooks.beforeUpdate?.(ctx, id, values)) ?? {};
            const updated = await entityRepo.update(ctx.sql, entity, id, values, {
              ...extra,
              updated_by: ctx.auth.userId,
            });
            if (!updated) throw notFound('error.recordNotFound');
            await writeLinks(ctx, id, values);
            await hooks.afterUpdate?.(ctx, id, values);
            await hooks.afterWrite?.(ctx);
            return ok(await reread(ctx, id));
          } catch (error) {
            translateDbError(entity, error, 'write');
          }
        }),
    });
  }

  /** The id of the record an update names by the entity's own key (no id sent). */
  async function idByKey(ctx: EntityContext, values: Row): Promise<string> {
    const key = String(values[entity.key]);
    const [found] = await entityRepo.byKeys(ctx.sql, entity, [key]);
    if (!found) throw notFound('error.recordNotFound');
    return String(found.id);
  }

  if (entity.operations.delete) {
    const keyName = entity.key;
    app.post(calls.delete, {
      config: { ...config, action: `delete:${entity.name}` },
      schema: {
        tags,
        summary: `Delete ${entity.title.en} records by ${keyName} (comma-separated for several); all or nothing`,
        querystring: z.object({ [keyName]: idListSchema.optional() }),
        body: z.object({ [keyName]: idListSchema.optional() }).nullish(),
        response: { 200: envelopeOf(z.object({ deleted: z.number() })) },
      },
      handler: async (request) =>
        inScope(request, true, async (ctx) => {
          const fromBody = (request.body as Record<string, string[] | undefined> | undefined)?.[
            keyName
          ];
          const keys = (request.query as Record<string, string[] | undefined>)[keyName] ?? fromBody;
          if (!keys)
            throw new AppError(400, 'validation.required', {
              fields: [{ field: keyName, key: 'validation.required' }],
            });
          if (keyName === 'id' && keys.some((key) => !/^\d{1,18}$/.test(key)))
            throw new AppError(400, 'validation.invalid', {
              fields: [{ field: keyName, key: 'validation.invalid' }],
            });
          try {
            const ids = (await entityRepo.byKeys(ctx.sql, entity, keys)).map((found) =>
              String(found.id),
            );
            // All or nothing: an id the tenant cannot see refuses the whole batch.
            if (ids.length !== new Set(keys).size) throw notFound('error.recordNotFound');
            await hooks.beforeDelete?.(ctx, ids);
            if (treeParentColumn(entity)) await refuseParentsOfOthers(ctx.sql, ids, keys);
            await entityRepo.remove(ctx.sql, entity, keys);
            await hooks.afterWrite?.(ctx);
            return ok({ deleted: ids.length });
          } catch (error) {
            translateDbError(entity, error, 'delete');
          }
        }),
    });
  }

  /** A tree node with children outside the batch is refused, so nothing is orphaned silently. */
  async function refuseParentsOfOthers(sql: Sql, ids: string[], keys: string[]) {
    const parentColumn = treeParentColumn(entity)!;
    const byId = Boolean(entity.fields[entity.tree!.parent]!.ref);
    const { rows } = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "${entity.table}" c WHERE c."${parentColumn}"::text = ANY($1) AND NOT (c.id::text = ANY($2))`,
      [byId ? ids : keys, ids],
    );
    if (rows[0]!.n > 0) throw new AppError(409, 'conflict.hasChildren');
  }

  const status = statusField(entity);
  if (entity.operations.status && status) {
    app.post(calls.status, {
      config: { ...config, action: `status:${entity.name}` },
      schema: {
        tags,
        summary: `Enable (1) or disable (0) ${entity.title.en} records`,
        body: z.strictObject({
          ids: z.array(idSchema).min(1).max(1000),
          status: z.union([z.literal(0), z.literal(1)]),
        }),
        response: { 200: envelopeOf(z.object({ updated: z.number() })) },
      },
      handler: async (request) =>
        inScope(request, true, async (ctx) => {
          const ids = [...new Set(request.body.ids)];
          const updated = await entityRepo.setStatus(
            ctx.sql,
            entity,
            ids,
            request.body.status,
            ctx.auth.userId,
          );
          if (updated !== ids.length) throw notFound('error.recordNotFound');
          await hooks.afterStatus?.(ctx, ids, request.body.status);
          await hooks.afterWrite?.(ctx);
          return ok({ updated });
        }),
    });
  }

  if (entity.operations.export)
    registerEntityExports(
      app,
      entity,
      { inScope, visibleFor, query, sortable: sortableFields(entity) },
      calls,
    );
}
