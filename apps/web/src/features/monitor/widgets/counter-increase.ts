import { localDay } from './calendar-days';

/** A point of a time series: [milliseconds since the epoch, value]. */
export type Point = [number, number];

/**
 * What a cumulative counter (a water meter's total, an energy register) added between its
 * samples, each increase dated at the later sample. A counter that drops was reset (a meter
 * replaced, an RTU's register cleared): it counted up from zero again, so the increase is its new
 * value rather than a negative one.
 */
export function counterIncreases(samples: readonly Point[]): Point[] {
  const sorted = [...samples].sort((a, b) => a[0] - b[0]);
  const increases: Point[] = [];
  for (let i = 1; i < sorted.length; i++) {
    const [ms, value] = sorted[i]!;
    const previous = sorted[i - 1]![1];
    increases.push([ms, value >= previous ? value - previous : value]);
  }
  return increases;
}

/** Sums points per day of a time zone; days in order. */
export function sumByDay(points: readonly Point[], timeZone: string): Map<string, number> {
  const days = new Map<string, number>();
  for (const [ms, value] of [...points].sort((a, b) => a[0] - b[0])) {
    const day = localDay(ms, timeZone);
    days.set(day, (days.get(day) ?? 0) + value);
  }
  return days;
}
