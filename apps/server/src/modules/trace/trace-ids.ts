import { newTraceCode } from '@shuili/contract';

/** A short random suffix for generated batch numbers (4 characters of Crockford base 32). */
export function randomSuffix(length = 4): string {
  return newTraceCode().slice(0, length);
}

/** A day as YYYYMMDD in a time zone (batch numbers). */
export function dayStamp(at: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(at);
  const get = (type: string) => parts.find((part) => part.type === type)?.value ?? '00';
  return `${get('year')}${get('month')}${get('day')}`;
}

/** A time as "YYYY-MM-DD HH:mm" in a time zone (messages naming a date). */
export function minuteStamp(at: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const get = (type: string) => parts.find((part) => part.type === type)?.value ?? '00';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}`;
}
