const two = (n: number) => String(n).padStart(2, '0');

/**
 * A photo's time as an operator reads it: "11-26 03:00", in a time zone (the district's in the
 * gallery, whose days are the district's) or the browser's.
 */
export function photoTimeText(iso: string, timeZone?: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  }).formatToParts(new Date(iso));
  const part = (type: string) => Number(parts.find((one) => one.type === type)?.value ?? 0);
  return `${two(part('month'))}-${two(part('day'))} ${two(part('hour'))}:${two(part('minute'))}`;
}

/** A photo's time of day: "03:00". */
export function photoClockText(iso: string, timeZone?: string): string {
  return photoTimeText(iso, timeZone).slice(6);
}
