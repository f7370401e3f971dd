import type { EntityHooks } from '../../entity/entity-hooks';
import { AppError } from '../../http/app-error';
import type { AuthContext } from '../../http/request-context';

const outside = (field: string) =>
  new AppError(403, 'auth.zoneOutsideYours', {
    fields: [{ field, key: 'auth.zoneOutsideYours' }],
  });

/**
 * A caller confined to zones (AuthContext.zoneIds) hands out only zones inside their own and
 * never to themselves: no list may confine someone more widely than the caller, and an empty
 * one (no zones: the whole tenant) is not theirs to give. Unconfined callers are not limited.
 */
export function checkZonesGiven(
  auth: AuthContext,
  userId: string,
  zoneIds: readonly string[],
  field: string,
): void {
  const own = auth.zoneIds;
  if (own === null) return;
  if (userId === auth.userId || zoneIds.length === 0) throw outside(field);
  if (zoneIds.some((id) => !own.includes(String(id)))) throw outside(field);
}

/**
 * Zones: a confined caller arranges only zones inside their own (a zone moved under theirs would
 * bring its devices with it), and a zone that users are still confined to cannot be deleted
 * (its users would fall back to the whole tenant).
 */
export const zoneHooks: EntityHooks = {
  async beforeCreate(ctx, values) {
    const own = ctx.auth.zoneIds;
    if (own !== null && !own.includes(String(values.zoneParent ?? ''))) throw outside('zoneParent');
  },
  async beforeUpdate(ctx, id, values) {
    const own = ctx.auth.zoneIds;
    if (own === null) return;
    if (!own.includes(id)) throw outside('zoneParent');
    if (values.zoneParent !== undefined && !own.includes(String(values.zoneParent ?? '')))
      throw outside('zoneParent');
  },
  async beforeDelete(ctx, ids) {
    const own = ctx.auth.zoneIds;
    if (own !== null && ids.some((id) => !own.includes(id))) throw outside('id');
    const { rows } = await ctx.sql.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM sys_user_zone WHERE zone_id = ANY($1::bigint[])',
      [ids],
    );
    if (rows[0]!.n > 0) throw new AppError(409, 'conflict.zoneAssigned');
  },
};
