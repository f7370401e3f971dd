import type { TelemetryBucket } from '@shuili/contract';

/**
 * When an aggregate can read the hourly rollup (migration 007): its hours are UTC hours, which
 * are whole hours, days and months of a zone only while the zone's offset is a whole number of
 * hours. Minute buckets need the readings themselves.
 */

const HOUR_MS = 3_600_000;
/** Offsets change at most a few times a year: a sample a week cannot miss one that lasts. */
const SAMPLE_MS = 7 * 24 * HOUR_MS;

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** "GMT+05:30", "GMT-03:00" or "GMT": the zone's offset from UTC at an instant. */
function offsetName(timeZone: string, at: number): string {
  let format = offsetFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    offsetFormats.set(timeZone, format);
  }
  return format.formatToParts(at).find((part) => part.type === 'timeZoneName')?.value ?? '';
}

/** Whether the zone is a whole number of hours off UTC throughout [start, end]. */
export function wholeHourOffsets(timeZone: string, start: Date, end: Date): boolean {
  for (let at = start.getTime(); ; at += SAMPLE_MS) {
    const instant = Math.min(at, end.getTime());
    if (!/^GMT([+-]\d{2}:00)?$/.test(offsetName(timeZone, instant))) return false;
    if (instant === end.getTime()) return true;
  }
}

export function rollupServes(
  bucket: TelemetryBucket,
  timeZone: string,
  start: Date,
  end: Date,
): boolean {
  return bucket !== 'minute' && wholeHourOffsets(timeZone, start, end);
}

/**
 * A range [start, end] (end included) as the whole UTC hours inside it, [fullFrom, fullTo), and
 * the raw edges around them: [start, fullFrom) and [fullTo, end]. Undefined when no whole hour
 * fits (the range is read raw).
 */
export function splitHours(start: Date, end: Date): { fullFrom: Date; fullTo: Date } | undefined {
  const fullFrom = Math.ceil(start.getTime() / HOUR_MS) * HOUR_MS;
  const fullTo = Math.floor(end.getTime() / HOUR_MS) * HOUR_MS;
  return fullFrom < fullTo ? { fullFrom: new Date(fullFrom), fullTo: new Date(fullTo) } : undefined;
}
