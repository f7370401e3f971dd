import type { EntityHooks } from '../../../entity/entity-hooks';
import type { Sql } from '../../../db/database';

/**
 * A household's default quota for a year: its irrigated area × its crop class's quota per mu, to
 * the hundredth of a m³ (undefined when the household has no class).
 */
export async function defaultQuota(sql: Sql, householdId: string): Promise<number | undefined> {
  const { rows } = await sql.query<{ quota: number | null }>(
    `SELECT round((h.irrigated_area * c.quota_per_mu)::numeric, 2)::float8 AS quota
       FROM billing_household h JOIN billing_price_class c ON c.id = h.price_class_id
      WHERE h.id = $1`,
    [householdId],
  );
  return rows[0]?.quota ?? undefined;
}

/** A water right made without a quota gets the household's default one. */
export const waterRightHooks: EntityHooks = {
  beforeCreate: async (ctx, values) => {
    if ((values.quotaM3 === undefined || values.quotaM3 === null) && values.householdId != null)
      values.quotaM3 = (await defaultQuota(ctx.sql, String(values.householdId))) ?? 0;
  },
};
