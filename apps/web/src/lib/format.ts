import { DATE_FORMAT } from '@shuili/contract';
import dayjs, { type Dayjs } from 'dayjs';
import type { TFunction } from 'i18next';
import { i18n } from '../i18n/i18n';

/** Something a screen may want to show as a date: a Date, a timestamp or a date text. */
export type DateInput = Date | Dayjs | number | string | null | undefined;

const NUMERIC = /^-?\d+$/;

/**
 * Spec §9: a 10-digit timestamp counts seconds, a 13-digit one milliseconds; numeric strings count
 * like numbers. Returns undefined for what is no date.
 */
export function toDayjs(value: DateInput): Dayjs | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  if (dayjs.isDayjs(value)) return value.isValid() ? value : undefined;
  let input: Date | number | string = value;
  if (typeof input === 'string' && NUMERIC.test(input.trim())) input = Number(input.trim());
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return undefined;
    const digits = String(Math.trunc(Math.abs(input))).length;
    if (digits === 10) input *= 1000;
  }
  const parsed = dayjs(input);
  return parsed.isValid() ? parsed : undefined;
}

/**
 * Spec §9 date text (DATE_FORMAT unless told): blank for an empty value, and a text that is no
 * date (a '-' placeholder, say) is shown as it is.
 */
export function formatDate(value: DateInput, format: string = DATE_FORMAT): string {
  if (value === null || value === undefined || value === '') return '';
  const date = toDayjs(value);
  if (date) return date.format(format);
  return typeof value === 'string' ? value : '';
}

const SUFFIXES = [
  { value: 1e18, symbol: 'E' },
  { value: 1e15, symbol: 'P' },
  { value: 1e12, symbol: 'T' },
  { value: 1e9, symbol: 'G' },
  { value: 1e6, symbol: 'M' },
  { value: 1e3, symbol: 'k' },
] as const;

function trimZeros(text: string): string {
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

/**
 * Spec §9 number abbreviation: 1234 → '1.2k', 1 500 000 → '1.5M' (suffixes k M G T P E), with
 * `digits` decimals at most and trailing zeros dropped. Below 1000 the number is shown as it is.
 */
export function formatNumber(value: number, digits = 1): string {
  if (!Number.isFinite(value)) return String(value);
  const sign = value < 0 ? '-' : '';
  const size = Math.abs(value);
  for (let index = 0; index < SUFFIXES.length; index += 1) {
    const { value: unit, symbol } = SUFFIXES[index]!;
    if (size < unit) continue;
    const scaled = Number((size / unit).toFixed(digits));
    // 999 950 rounds to "1000.0k": say "1M" instead.
    const bigger = SUFFIXES[index - 1];
    if (scaled >= 1000 && bigger)
      return `${sign}${trimZeros((size / bigger.value).toFixed(digits))}${bigger.symbol}`;
    return `${sign}${trimZeros(scaled.toFixed(digits))}${symbol}`;
  }
  return `${sign}${size}`;
}

export interface RelativeOptions {
  /** Milliseconds since the epoch to measure from; defaults to now. */
  now?: number;
  /** The date format used beyond two days; defaults to a short translated one. */
  format?: string;
  /** The translation function; defaults to the app's current language. */
  t?: TFunction;
}

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Clocks of browser and server differ a little: a time this far ahead still reads "just now". */
const SKEW_SECONDS = 30;

/**
 * Spec §9 relative time: under 30 s 'just now', under an hour 'N minutes ago', under a day
 * 'N hours ago', under two days '1 day ago', otherwise the date. Blank for an empty value.
 */
export function formatRelative(value: DateInput, options: RelativeOptions = {}): string {
  const date = toDayjs(value);
  if (!date) return formatDate(value);
  const t = options.t ?? i18n.t;
  const now = options.now ?? Date.now();
  const seconds = (now - date.valueOf()) / 1000;
  if (seconds >= -SKEW_SECONDS) {
    if (seconds < 30) return t('format.justNow');
    if (seconds < HOUR) {
      const minutes = Math.floor(seconds / MINUTE);
      return minutes <= 1 ? t('format.minuteAgo') : t('format.minutesAgo', { count: minutes });
    }
    if (seconds < DAY) {
      const hours = Math.floor(seconds / HOUR);
      return hours <= 1 ? t('format.hourAgo') : t('format.hoursAgo', { count: hours });
    }
    if (seconds < 2 * DAY) return t('format.dayAgo');
  }
  if (options.format) return date.format(options.format);
  const sameYear = date.year() === dayjs(now).year();
  return date.format(t(sameYear ? 'format.dateThisYear' : 'format.dateOtherYear'));
}
