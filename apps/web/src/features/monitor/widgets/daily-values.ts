import { localDay } from './calendar-days';

/** One day's value as a monitor call answers it (day as YYYY-MM-DD or an instant). */
export interface DailyItem {
  day?: string;
  date?: string;
  bucket?: string;
  [value: string]: unknown;
}

/** The items of an answer: { list } or a bare array. */
export function listOf(answer: unknown): DailyItem[] {
  if (Array.isArray(answer)) return answer as DailyItem[];
  const list = (answer as { list?: unknown } | null | undefined)?.list;
  return Array.isArray(list) ? (list as DailyItem[]) : [];
}

/**
 * Values per calendar day from a daily answer: the day from `day`, `date` or `bucket`, either a
 * calendar day already (YYYY-MM-DD) or an instant, cut into days in `timeZone` (the tenant's, as
 * the answer names it); the value from `field`. Items `keep` refuses are left out.
 */
export function dailyValues(
  answer: unknown,
  field: string,
  timeZone = 'UTC',
  keep: (item: DailyItem) => boolean = () => true,
): Map<string, number> {
  const days = new Map<string, number>();
  for (const item of listOf(answer)) {
    if (!keep(item)) continue;
    const when = String(item.day ?? item.date ?? item.bucket ?? '');
    const ms = Date.parse(when);
    const day = /^\d{4}-\d{2}-\d{2}$/.test(when)
      ? when
      : Number.isFinite(ms)
        ? localDay(ms, timeZone)
        : undefined;
    const value = item[field];
    if (day && typeof value === 'number' && Number.isFinite(value))
      days.set(day, (days.get(day) ?? 0) + value);
  }
  return days;
}
