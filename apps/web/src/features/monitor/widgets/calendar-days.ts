/** The calendar day (YYYY-MM-DD) of an instant in a time zone (the tenant's, as reports cut days). */
export function localDay(ms: number, timeZone: string): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(ms);
}

/** The days (YYYY-MM-DD) from the day of `startMs` through the day of `endMs`, in a time zone. */
export function daysBetween(startMs: number, endMs: number, timeZone: string): string[] {
  const days: string[] = [];
  // Steps of 6 h never skip a day, whatever the zone's offset or a DST change.
  for (let ms = startMs; ms <= endMs; ms += 6 * 3_600_000) {
    const day = localDay(ms, timeZone);
    if (days[days.length - 1] !== day) days.push(day);
  }
  const last = localDay(endMs, timeZone);
  if (days[days.length - 1] !== last) days.push(last);
  return days;
}

/** A calendar day moved by whole days (calendar arithmetic: no time zone is involved). */
export function shiftDay(day: string, days: number): string {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(Date.UTC(year!, month! - 1, date! + days)).toISOString().slice(0, 10);
}

/** Every calendar day from `first` through `last`. */
export function dayRange(first: string, last: string): string[] {
  const days: string[] = [];
  for (let day = first; day <= last; day = shiftDay(day, 1)) days.push(day);
  return days;
}

/** The reader's own time zone (where the tenant's is not known yet). */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
