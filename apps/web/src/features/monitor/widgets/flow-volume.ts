import type { Point } from './counter-increase';

/**
 * Volume that passed at a metered rate, from average rates per bucket: a suction flow of
 * 120 L/h averaged over a one-hour bucket moved 120 L. `hoursPerBucket` converts the rate's
 * hour into the bucket's length; buckets without readings moved nothing we know of.
 */
export function volumesFromRates(rates: readonly Point[], hoursPerBucket: number): Point[] {
  return rates
    .filter(([, rate]) => Number.isFinite(rate) && rate > 0)
    .map(([ms, rate]) => [ms, rate * hoursPerBucket]);
}

/** The total of a series' values. */
export const totalOf = (points: readonly Point[]): number =>
  points.reduce((sum, [, value]) => sum + value, 0);
