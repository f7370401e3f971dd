import type { DeviceScope, Sql } from '../../db/database';
import type { EntityHooks } from '../../entity/entity-hooks';
import { AppError } from '../../http/app-error';
import type { AuthContext } from '../../http/request-context';

/** The refusal of each way of confinement, on the field that asked for too much. */
const OUTSIDE: Record<keyof DeviceScope, string> = {
  zoneIds: 'auth.zoneOutsideYours',
  projectIds: 'auth.projectOutsideYours',
};

const outside = (scope: keyof DeviceScope, field: string) =>
  new AppError(403, OUTSIDE[scope], { fields: [{ field, key: OUTSIDE[scope] }] });

/**
 * A caller confined one way (AuthContext.zoneIds, .projectIds) hands out only ids inside their
 * own and never to themselves: no list may confine someone more widely than the caller, and an
 * empty one (not confined that way: the whole tenant) is not theirs to give. Callers not
 * confined that way are not limited.
 */
export function checkScopeGiven(
  auth: AuthContext,
  scope: keyof DeviceScope,
  userId: string,
  ids: readonly string[],
  field: string = scope,
): void {
  const own = auth[scope];
  if (own === null) return;
  if (userId === auth.userId || ids.length === 0) throw outside(scope, field);
  if (ids.some((id) => !own.includes(String(id)))) throw outside(scope, field);
}

/**
 * A caller confined one way or both manages only users confined at least as narrowly on every
 * way the caller is (their zones and projects all inside the caller's): otherwise a confined
 * administrator could reset the password of, change the roles of, or lift the confinement of
 * someone who sees more than they do, and act as them. The caller themself is always theirs to
 * manage. Unconfined callers are not limited. Runs in the caller's tenant (`sql`).
 */
export async function checkManageable(
  sql: Sql,
  auth: AuthContext,
  userIds: readonly string[],
  field = 'id',
): Promise<void> {
  if (auth.zoneIds === null && auth.projectIds === null) return;
  const others = [...new Set(userIds.map(String))].filter((id) => id !== auth.userId);
  if (others.length === 0) return;
  const { rows } = await sql.query<{ zones: string[] | null; projects: string[] | null }>(
    `SELECT shuili_user_zones(u.id)::text[] AS zones, shuili_user_projects(u.id)::text[] AS projects
       FROM sys_user u WHERE u.id = ANY($1::bigint[])`,
    [others],
  );
  const within = (own: readonly string[] | null, theirs: string[] | null) =>
    own === null || (theirs !== null && theirs.every((id) => own.includes(id)));
  for (const row of rows) {
    if (!within(auth.zoneIds, row.zones)) throw outside('zoneIds', field);
    if (!within(auth.projectIds, row.projects)) throw outside('projectIds', field);
  }
}

/** Refuses to delete what users are still confined to: they would fall back to everything. */
async function refuseAssigned(
  ctx: Parameters<NonNullable<EntityHooks['beforeDelete']>>[0],
  link: { table: string; column: string },
  ids: string[],
  conflict: string,
): Promise<void> {
  const { rows } = await ctx.sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${link.table} WHERE ${link.column} = ANY($1::bigint[])`,
    [ids],
  );
  if (rows[0]!.n > 0) throw new AppError(409, conflict);
}

/**
 * Zones: a confined caller arranges only zones inside their own (a zone moved under theirs would
 * bring its devices with it), and a zone that users are still confined to cannot be deleted.
 */
export const zoneHooks: EntityHooks = {
  async beforeCreate(ctx, values) {
    const own = ctx.auth.zoneIds;
    if (own !== null && !own.includes(String(values.zoneParent ?? '')))
      throw outside('zoneIds', 'zoneParent');
  },
  async beforeUpdate(ctx, id, values) {
    const own = ctx.auth.zoneIds;
    if (own === null) return;
    if (!own.includes(id)) throw outside('zoneIds', 'zoneParent');
    if (values.zoneParent !== undefined && !own.includes(String(values.zoneParent ?? '')))
      throw outside('zoneIds', 'zoneParent');
  },
  async beforeDelete(ctx, ids) {
    const own = ctx.auth.zoneIds;
    if (own !== null && ids.some((id) => !own.includes(id))) throw outside('zoneIds', 'id');
    await refuseAssigned(
      ctx,
      { table: 'sys_user_zone', column: 'zone_id' },
      ids,
      'conflict.zoneAssigned',
    );
  },
};

/**
 * Projects: one that users are still bound to cannot be deleted (unbound, they would see every
 * project's devices). A device's project is the device's own field, under the device policies.
 */
export const projectHooks: EntityHooks = {
  async beforeDelete(ctx, ids) {
    await refuseAssigned(
      ctx,
      { table: 'sys_user_project', column: 'project_id' },
      ids,
      'conflict.projectAssigned',
    );
  },
};
