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

/** What the chart needs to know of a charted property. */
export interface ChartedParam {
  key: string;
  type: string;
  unit?: string;
}

/** One value axis: the unit its series share, and where it stands. */
export interface AxisSpec {
  /** The unit written on the axis; undefined for states and unitless values. */
  unit: string | undefined;
  position: 'left' | 'right';
  /** Pixels from the grid's edge: axes on one side stand side by side. */
  offset: number;
}

/** Space one extra axis takes beside another on the same side. */
export const AXIS_GAP = 60;

/**
 * One value axis per unit, so a flow of 0–25 m³/h beside a cumulative 42,000 m³ is not a flat
 * line: series of the same unit share theirs; states (enums, booleans) share one. Axes alternate
 * left and right, then stand further out.
 */
export function axesOf(params: readonly ChartedParam[]): {
  axes: AxisSpec[];
  axisOf: Map<string, number>;
} {
  const axes: AxisSpec[] = [];
  const byGroup = new Map<string, number>();
  const axisOf = new Map<string, number>();
  for (const param of params) {
    const state = param.type === 'enum' || param.type === 'boolean';
    const group = state ? '\u0000state' : (param.unit ?? '\u0000none');
    let index = byGroup.get(group);
    if (index === undefined) {
      index = axes.length;
      byGroup.set(group, index);
      axes.push({
        unit: state ? undefined : param.unit,
        position: index % 2 === 0 ? 'left' : 'right',
        offset: Math.floor(index / 2) * AXIS_GAP,
      });
    }
    axisOf.set(param.key, index);
  }
  return { axes, axisOf };
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * The bucket that shows a range well: raw readings for a few hours (the chart asks for 1000 at
 * most), then minutes, hours, days and months, each within what the server allows per query.
 */
export function autoBucket(startMs: number, endMs: number): HistoryBucket {
  const span = endMs - startMs;
  if (span <= 6 * HOUR_MS) return 'raw';
  if (span <= 2 * DAY_MS) return 'minute';
  if (span <= 62 * DAY_MS) return 'hour';
  if (span <= 1000 * DAY_MS) return 'day';
  return 'month';
}

/**
 * The range the chart opens on: the last day, unless the device's newest reading is older than
 * that, then the day up to that reading (a device silent for a week still shows its last data).
 */
export function initialRange(newestMs: number | undefined, nowMs: number): [number, number] {
  const end = newestMs !== undefined && newestMs < nowMs - DAY_MS ? newestMs + 60_000 : nowMs;
  return [end - DAY_MS, end];
}
