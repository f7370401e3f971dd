import { priceByTiers, type TierInput } from '@shuili/contract';

/** One step of a class's staircase as the prices page lists it. */
export interface Stair {
  /** Lower and upper bound, % over the quota (null: the quota itself / no upper bound). */
  from: number | null;
  to: number | null;
  multiplier: number;
  /** Fen per m³. */
  unitPrice: number;
}

/** A class's staircase: the quota at the base price, then its tiers in order. */
export function stairsOf(basePrice: number, tiers: readonly TierInput[]): Stair[] {
  const ordered = [...tiers].sort(
    (a, b) => (a.overQuotaPercent ?? Infinity) - (b.overQuotaPercent ?? Infinity),
  );
  const stairs: Stair[] = [{ from: null, to: 0, multiplier: 1, unitPrice: basePrice }];
  let from = 0;
  for (const tier of ordered) {
    stairs.push({
      from,
      to: tier.overQuotaPercent,
      multiplier: tier.multiplier,
      unitPrice: Math.round(basePrice * tier.multiplier * 10_000) / 10_000,
    });
    if (tier.overQuotaPercent === null) break;
    from = tier.overQuotaPercent;
  }
  return stairs;
}

/**
 * The worked example under a class (RESEARCH.md): a household with a 100 m³ quota using 110 m³,
 * priced as a session is; the amount in yuan.
 */
export function exampleYuan(basePrice: number, tiers: readonly TierInput[]): number {
  const { amountFen } = priceByTiers({
    usedBeforeM3: 0,
    volumeM3: 110,
    quotaM3: 100,
    basePrice,
    tiers,
  });
  return amountFen / 100;
}
