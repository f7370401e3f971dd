import {
  AREAS,
  COUNTER_FACTORS,
  type AreaDef,
  type ReportSeries,
  type ReportStats,
  type ReportTotal,
  type ThingProperty,
} from '@shuili/contract';

/** Every area's total factors: the cross-area report totals what any area totals. */
const ANY_AREA_TOTALS: readonly string[] = [...new Set(AREAS.flatMap((area) => area.totalFactors))];

/**
 * How a factor's total is formed: a counter (COUNTER_FACTORS, by its catalogue factor or its key)
 * totals its increase; a factor the area totals (rain per reading) its readings; others none.
 */
export function totalOf(
  key: string,
  property: ThingProperty,
  area: AreaDef | undefined,
): ReportTotal {
  if (COUNTER_FACTORS.includes(property.factor ?? '') || COUNTER_FACTORS.includes(key))
    return 'increase';
  const totals = area ? area.totalFactors : ANY_AREA_TOTALS;
  return totals.includes(key) ? 'sum' : null;
}

/** A series' points column by column, in time order, as the repo answers them. */
export interface SeriesPoints {
  at: number[];
  avg: Array<number | null>;
  min: Array<number | null>;
  max: Array<number | null>;
  count: number[];
  sum: Array<number | null>;
  increase: Array<number | null>;
}

export const NO_POINTS: SeriesPoints = {
  at: [],
  avg: [],
  min: [],
  max: [],
  count: [],
  sum: [],
  increase: [],
};

/**
 * A series' statistics over its buckets: the readings' minimum, maximum and mean (sums and
 * counts added, never means of means), and its total as the factor forms one.
 */
export function statsOf(points: SeriesPoints, total: ReportTotal): ReportStats {
  let count = 0;
  let sum = 0;
  let increase = 0;
  let min: number | null = null;
  let max: number | null = null;
  for (let i = 0; i < points.at.length; i += 1) {
    if (points.count[i] === 0) continue;
    count += points.count[i]!;
    sum += points.sum[i] ?? 0;
    increase += points.increase[i] ?? 0;
    const low = points.min[i] ?? null;
    const high = points.max[i] ?? null;
    if (low !== null && (min === null || low < min)) min = low;
    if (high !== null && (max === null || high > max)) max = high;
  }
  if (count === 0) return { count, min: null, max: null, mean: null, total: null };
  return {
    count,
    min,
    max,
    mean: sum / count,
    total: total === 'increase' ? increase : total === 'sum' ? sum : null,
  };
}

/** A series as answered, with the per-bucket total when the factor has one ('none': raw). */
export function seriesOf(
  deviceId: string,
  key: string,
  points: SeriesPoints,
  stats: ReportStats,
  total: ReportTotal | 'none',
): ReportSeries {
  const series: ReportSeries = {
    deviceId,
    key,
    stats,
    at: points.at,
    avg: points.avg,
    min: points.min,
    max: points.max,
    count: points.count,
  };
  if (total === 'increase') series.total = points.increase;
  else if (total === 'sum') series.total = points.sum;
  return series;
}
