/** Buckets of the history chart: raw readings or aggregates per period. */
export const HISTORY_BUCKETS = ['raw', 'minute', 'hour', 'day', 'month'] as const;
export type HistoryBucket = (typeof HISTORY_BUCKETS)[number];

/** One point as queryHistory or queryAggregate answers it (either naming is accepted). */
export interface HistoryRow {
  key: string;
  ts?: string | number;
  bucket?: string | number;
  value?: number | null;
  avg?: number | null;
}

/** Points per key, in time order, as [ms, value] pairs for a time axis. */
export function seriesByKey(rows: readonly HistoryRow[]): Map<string, [number, number][]> {
  const series = new Map<string, [number, number][]>();
  for (const row of rows) {
    const when = row.ts ?? row.bucket;
    const value = row.value ?? row.avg;
    if (when === undefined || value === null || value === undefined) continue;
    const ms = typeof when === 'number' ? when : Date.parse(when);
    if (!Number.isFinite(ms)) continue;
    const points = series.get(row.key) ?? [];
    points.push([ms, value]);
    series.set(row.key, points);
  }
  for (const points of series.values()) points.sort((a, b) => a[0] - b[0]);
  return series;
}
