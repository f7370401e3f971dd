import { notificationEntity, ROLE_ADMIN } from '@shuili/contract';
import type { Sql } from '../../db/database';
import { checkDataFields } from '../../entity/data-field.service';
import type { EntityHooks } from '../../entity/entity-hooks';
import { AppError } from '../../http/app-error';
import type { UrlGrantService } from '../authority/url-grant.service';

/** Any change to roles, URLs or grants drops this node's cached grants once it is committed. */
export function grantCacheHooks(grants: UrlGrantService): EntityHooks {
  return { afterCommit: () => grants.invalidate() };
}

/** ROLE_ADMIN is what keeps a tenant administrable: it keeps its code and cannot go. */
export function roleHooks(grants: UrlGrantService): EntityHooks {
  return {
    async beforeUpdate(ctx, id, values) {
      const { rows } = await ctx.sql.query<{ role_code: string }>(
        'SELECT role_code FROM sys_role WHERE id = $1',
        [id],
      );
      if (
        rows[0]?.role_code === ROLE_ADMIN &&
        ((values.roleCode && values.roleCode !== ROLE_ADMIN) || values.status === 0)
      ) {
        throw new AppError(409, 'conflict.adminRole');
      }
    },
    async afterStatus(ctx, ids, status) {
      if (status === 0) await refuseAdminRole(ctx.sql, ids);
    },
    async beforeDelete(ctx, ids) {
      await refuseAdminRole(ctx.sql, ids);
    },
    afterCommit: () => grants.invalidate(),
  };
}

async function refuseAdminRole(sql: Sql, ids: string[]) {
  const { rows } = await sql.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM sys_role WHERE id = ANY($1::bigint[]) AND role_code = $2',
    [ids, ROLE_ADMIN],
  );
  if (rows[0]!.n > 0) throw new AppError(409, 'conflict.adminRole');
}

/**
 * Data permissions: one rule per role and menu (the spec's message when a second one is added),
 * naming only fields of a menu that lists data (checkDataFields, as the role screen's call does).
 */
export const dataPermissionHooks: EntityHooks = {
  async beforeCreate(ctx, values) {
    const { rows } = await ctx.sql.query(
      'SELECT 1 FROM sys_data_permission WHERE role_code = $1 AND menu_code = $2',
      [values.roleCode, values.menuCode],
    );
    if (rows.length > 0) {
      throw new AppError(409, 'conflict.dataPermission', {
        fields: [{ field: 'roleCode', key: 'conflict.dataPermission' }],
      });
    }
    values.dataFields = checkDataFields(String(values.menuCode), String(values.dataFields));
  },
  async beforeUpdate(ctx, id, values) {
    if (values.dataFields === undefined && values.menuCode === undefined) return;
    // An edit may send one of the two: the other is the rule's own.
    const { rows } = await ctx.sql.query<{ menu_code: string; data_fields: string }>(
      'SELECT menu_code, data_fields FROM sys_data_permission WHERE id = $1',
      [id],
    );
    if (!rows[0]) return;
    values.dataFields = checkDataFields(
      String(values.menuCode ?? rows[0].menu_code),
      String(values.dataFields ?? rows[0].data_fields),
    );
  },
};

/**
 * A notice is stored as spec §3 names it; `notification`, the console's former value (and the
 * bell's name of a notice), is taken to mean the same.
 */
function specType(values: Record<string, unknown>) {
  if (values.type === 'notification') values.type = 'notice';
}

/** Notifications: the publisher is whoever publishes; recipients must match the scope. */
export const notificationHooks: EntityHooks = {
  async beforeCreate(ctx, values) {
    specType(values);
    await checkTargets(ctx.sql, values);
    return { publisher_id: ctx.auth.userId };
  },
  async beforeUpdate(ctx, id, values) {
    specType(values);
    if (values.publishScope === undefined && values.publishTargets === undefined) return;
    const { rows } = await ctx.sql.query<{ publish_scope: string; targets: string[] }>(
      'SELECT publish_scope, publish_targets::text[] AS targets FROM notification WHERE id = $1',
      [id],
    );
    if (!rows[0]) return;
    values.publishScope ??= rows[0].publish_scope;
    values.publishTargets ??= rows[0].targets;
    await checkTargets(ctx.sql, values);
  },
};

/** Recipients must be rows of the tenant in the table the scope names (RLS hides others). */
async function checkTargets(sql: Sql, values: Record<string, unknown>) {
  const scope = String(values.publishScope ?? 'all');
  const listed = Array.isArray(values.publishTargets) ? (values.publishTargets as string[]) : [];
  const targets = [...new Set(listed)];
  const target = notificationEntity.fields.publishTargets!.targetsBy!.targets[scope];
  if (!target) {
    values.publishTargets = [];
    return;
  }
  const problem = (key: string) =>
    new AppError(400, key, { fields: [{ field: 'publishTargets', key }] });
  if (targets.length === 0) throw problem('validation.required');
  const { rows } = await sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${target.table} WHERE id = ANY($1::bigint[])`,
    [targets],
  );
  if (rows[0]!.n !== targets.length) throw problem('validation.refMissing');
  values.publishTargets = targets;
}
