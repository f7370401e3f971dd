import type { StatisticsPeriod } from '@shuili/contract';

/**
 * to_char patterns of the periods: a bucket's name is its first day's text cut short, so
 * "2026-11-26", "2026-11" and "2026" sort as they come.
 */
export const PERIOD_PATTERN: Record<StatisticsPeriod, string> = {
  day: 'YYYY-MM-DD',
  month: 'YYYY-MM',
  year: 'YYYY',
};

/**
 * The SQL of a range of the tenant's calendar days as instants: `$start` and `$end` are
 * YYYY-MM-DD, both included, `$zone` the tenant's zone; the end bound is the next day's start.
 */
export function rangeBounds(start: string, end: string, zone: string) {
  return {
    from: `(${start}::date::timestamp AT TIME ZONE ${zone})`,
    to: `((${end}::date + 1)::timestamp AT TIME ZONE ${zone})`,
  };
}

/** The SQL naming the period of an instant in the tenant's zone. */
export function periodOf(column: string, zone: string, pattern: string): string {
  return `to_char(${column} AT TIME ZONE ${zone}, ${pattern})`;
}

/** A numeric column read as a JavaScript number (bigint sums come back as text otherwise). */
export const num = (expression: string) => `coalesce(${expression}, 0)::float8`;
