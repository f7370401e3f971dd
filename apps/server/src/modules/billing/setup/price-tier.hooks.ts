import { priceTierEntity } from '@shuili/contract';
import type { EntityContext, EntityHooks } from '../../../entity/entity-hooks';
import type { Row } from '../../../entity/entity-repo';
import type { FieldProblem } from '../../../http/app-error';
import { mergedRow, refuseProblems } from '../../monitor/entity-rows';

interface Tier {
  bound: number | null;
  multiplier: number;
}

/** A bound as a number to order by: no upper bound comes last. */
const order = (bound: number | null) => bound ?? Number.POSITIVE_INFINITY;
const shownBound = (bound: number | null) => (bound === null ? '∞' : `${bound} %`);

/**
 * The tiers of a class stay a staircase: one tier per bound, one without upper bound at most,
 * and multipliers that never decrease from one tier to the next. Tiers follow each other without
 * gaps by construction (each begins where the one under it ends, the first at the quota), so the
 * price of a session is continuous in its volume (contract billing/pricing.ts).
 */
async function checkTier(ctx: EntityContext, id: string | undefined, values: Row) {
  const tier = await mergedRow(ctx.sql, priceTierEntity.table, id, values);
  if (tier.priceClassId === undefined || tier.priceClassId === null) return;
  const classId = String(tier.priceClassId);
  // Tiers of one class are written one after the other: two crossing ones sent at the same
  // moment cannot both pass the check below.
  await ctx.sql.query(`SELECT pg_advisory_xact_lock(hashtext('price-tier:' || $1::text))`, [
    classId,
  ]);
  const { rows } = await ctx.sql.query<{ bound: number | null; multiplier: number }>(
    `SELECT over_quota_percent AS bound, multiplier FROM billing_price_tier
      WHERE price_class_id = $1 AND ($2::bigint IS NULL OR id <> $2::bigint)`,
    [classId, id ?? null],
  );
  const mine: Tier = {
    bound:
      tier.overQuotaPercent === null || tier.overQuotaPercent === undefined
        ? null
        : Number(tier.overQuotaPercent),
    multiplier: Number(tier.multiplier),
  };
  const others: Tier[] = rows.map((row) => ({
    bound: row.bound === null ? null : Number(row.bound),
    multiplier: Number(row.multiplier),
  }));
  const problems: FieldProblem[] = [];
  if (others.some((other) => other.bound === mine.bound)) {
    problems.push(
      mine.bound === null
        ? { field: 'overQuotaPercent', key: 'billing.tierOpenTwice' }
        : {
            field: 'overQuotaPercent',
            key: 'billing.tierBoundTwice',
            params: { bound: shownBound(mine.bound) },
          },
    );
  } else {
    const below = others
      .filter((other) => order(other.bound) < order(mine.bound))
      .sort((a, b) => order(b.bound) - order(a.bound))[0];
    const above = others
      .filter((other) => order(other.bound) > order(mine.bound))
      .sort((a, b) => order(a.bound) - order(b.bound))[0];
    if (below && below.multiplier > mine.multiplier)
      problems.push({
        field: 'multiplier',
        key: 'billing.tierBelowLower',
        params: {
          multiplier: mine.multiplier,
          lower: below.multiplier,
          bound: shownBound(below.bound),
        },
      });
    else if (above && above.multiplier < mine.multiplier)
      problems.push({
        field: 'multiplier',
        key: 'billing.tierAboveUpper',
        params: {
          multiplier: mine.multiplier,
          upper: above.multiplier,
          bound: shownBound(above.bound),
        },
      });
  }
  refuseProblems(problems);
}

/** The price tiers' rules, for the generic entity routes. */
export const priceTierHooks: EntityHooks = {
  beforeCreate: async (ctx, values) => checkTier(ctx, undefined, values),
  beforeUpdate: async (ctx, id, values) => checkTier(ctx, id, values),
};
