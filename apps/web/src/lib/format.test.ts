import { DATE_FORMAT } from '@shuili/contract';
import dayjs from 'dayjs';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import en from '../i18n/en.json';
import { i18n } from '../i18n/i18n';
import tw from '../i18n/tw.json';
import zh from '../i18n/zh.json';
import { formatDate, formatNumber, formatRelative, toDayjs } from './format';

beforeAll(async () => {
  await i18n.init({
    lng: 'en',
    resources: { en: { translation: en }, zh: { translation: zh }, tw: { translation: tw } },
    interpolation: { escapeValue: false },
  });
});

beforeEach(async () => {
  await i18n.changeLanguage('en');
});

// Local wall-clock times, so the expectations hold in every time zone.
const moment = new Date(2024, 0, 2, 3, 4, 5);
const ms = moment.getTime();
const seconds = ms / 1000;

describe('formatDate (spec §9)', () => {
  it('uses YYYY-MM-DD HH:mm:ss', () => {
    expect(DATE_FORMAT).toBe('YYYY-MM-DD HH:mm:ss');
    expect(formatDate(moment)).toBe('2024-01-02 03:04:05');
    expect(formatDate(dayjs(moment))).toBe('2024-01-02 03:04:05');
    expect(formatDate(moment.toISOString())).toBe('2024-01-02 03:04:05');
  });

  it('shows blank for an empty value and keeps "-"', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate(undefined)).toBe('');
    expect(formatDate('')).toBe('');
    expect(formatDate('-')).toBe('-');
  });

  it('reads 10-digit timestamps as seconds and 13-digit ones as milliseconds', () => {
    expect(String(seconds)).toHaveLength(10);
    expect(String(ms)).toHaveLength(13);
    expect(formatDate(seconds)).toBe('2024-01-02 03:04:05');
    expect(formatDate(ms)).toBe('2024-01-02 03:04:05');
    expect(formatDate(String(seconds))).toBe('2024-01-02 03:04:05');
    expect(formatDate(String(ms))).toBe('2024-01-02 03:04:05');
    expect(toDayjs(seconds)?.valueOf()).toBe(ms);
  });

  it('takes another format', () => {
    expect(formatDate(ms, 'YYYY/MM/DD')).toBe('2024/01/02');
  });

  it('shows a text that is no date as it is', () => {
    expect(formatDate('n/a')).toBe('n/a');
    expect(formatDate(Number.NaN)).toBe('');
  });
});

describe('formatNumber (spec §9)', () => {
  it('abbreviates with k M G T P E', () => {
    expect(formatNumber(1234)).toBe('1.2k');
    expect(formatNumber(1_500_000)).toBe('1.5M');
    expect(formatNumber(2e9)).toBe('2G');
    expect(formatNumber(3.25e12, 2)).toBe('3.25T');
    expect(formatNumber(4e15)).toBe('4P');
    expect(formatNumber(5.5e18)).toBe('5.5E');
  });

  it('drops trailing zeros and honours digits', () => {
    expect(formatNumber(1000)).toBe('1k');
    expect(formatNumber(1050, 2)).toBe('1.05k');
    expect(formatNumber(1234, 0)).toBe('1k');
    expect(formatNumber(1_234_567, 3)).toBe('1.235M');
  });

  it('leaves numbers under 1000 alone', () => {
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(999)).toBe('999');
    expect(formatNumber(12.5)).toBe('12.5');
  });

  it('rolls over to the next suffix instead of showing 1000k', () => {
    expect(formatNumber(999_950)).toBe('1M');
    expect(formatNumber(999_949)).toBe('999.9k');
  });

  it('keeps the sign of negative numbers', () => {
    expect(formatNumber(-1234)).toBe('-1.2k');
    expect(formatNumber(-5)).toBe('-5');
  });
});

describe('formatRelative (spec §9)', () => {
  const now = new Date(2024, 5, 15, 12, 0, 0).getTime();
  const ago = (s: number) => now - s * 1000;

  it("says 'just now' under 30 seconds", () => {
    expect(formatRelative(ago(0), { now })).toBe('just now');
    expect(formatRelative(ago(29), { now })).toBe('just now');
    // A little ahead (clock skew) is still now.
    expect(formatRelative(ago(-10), { now })).toBe('just now');
  });

  it('counts minutes under an hour', () => {
    expect(formatRelative(ago(30), { now })).toBe('1 minute ago');
    expect(formatRelative(ago(119), { now })).toBe('1 minute ago');
    expect(formatRelative(ago(5 * 60), { now })).toBe('5 minutes ago');
    expect(formatRelative(ago(3599), { now })).toBe('59 minutes ago');
  });

  it('counts hours under a day', () => {
    expect(formatRelative(ago(3600), { now })).toBe('1 hour ago');
    expect(formatRelative(ago(5 * 3600 + 59), { now })).toBe('5 hours ago');
    expect(formatRelative(ago(86_399), { now })).toBe('23 hours ago');
  });

  it("says '1 day ago' under two days", () => {
    expect(formatRelative(ago(86_400), { now })).toBe('1 day ago');
    expect(formatRelative(ago(2 * 86_400 - 1), { now })).toBe('1 day ago');
  });

  it('shows a date beyond two days, the given format or a translated one', () => {
    const then = new Date(2024, 2, 3, 14, 5, 0).getTime();
    expect(formatRelative(then, { now })).toBe('Mar 3, 14:05');
    expect(formatRelative(then, { now, format: DATE_FORMAT })).toBe('2024-03-03 14:05:00');
    expect(formatRelative(new Date(2023, 11, 31, 8, 0).getTime(), { now })).toBe(
      'Dec 31, 2023 08:00',
    );
    // A time far ahead is no "ago": it is shown as a date.
    expect(formatRelative(ago(-3 * 86_400), { now })).toBe('Jun 18, 12:00');
  });

  it('reads 10-digit timestamps as seconds', () => {
    expect(formatRelative(Math.round(ago(5 * 60) / 1000), { now })).toBe('5 minutes ago');
  });

  it('is blank for an empty value', () => {
    expect(formatRelative(null, { now })).toBe('');
    expect(formatRelative('', { now })).toBe('');
    expect(formatRelative('-', { now })).toBe('-');
  });

  it('follows the interface language', async () => {
    await i18n.changeLanguage('zh');
    expect(formatRelative(ago(10), { now })).toBe('刚刚');
    expect(formatRelative(ago(5 * 60), { now })).toBe('5 分钟前');
    expect(formatRelative(ago(2 * 3600), { now })).toBe('2 小时前');
    expect(formatRelative(ago(86_400), { now })).toBe('1 天前');
    expect(formatRelative(new Date(2024, 2, 3, 14, 5).getTime(), { now })).toBe('3月3日 14:05');
    await i18n.changeLanguage('tw');
    expect(formatRelative(ago(10), { now })).toBe('剛剛');
    expect(formatRelative(ago(5 * 60), { now })).toBe('5 分鐘前');
    expect(formatRelative(new Date(2023, 2, 3, 14, 5).getTime(), { now })).toBe(
      '2023年3月3日 14:05',
    );
  });

  it('takes a translation function', () => {
    const t = i18n.getFixedT('zh');
    expect(formatRelative(ago(10), { now, t })).toBe('刚刚');
  });
});
