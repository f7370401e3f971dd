import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { formatAge, isStale } from './reading-age';

const t = ((key: string, options?: { count?: number }) =>
  options?.count === undefined ? key : `${key}:${options.count}`) as unknown as TFunction;

describe('reading age', () => {
  const now = Date.parse('2025-06-10T12:00:00Z');
  it('counts seconds under a minute, never "just now" for a value a minute old', () => {
    expect(formatAge(now - 12_400, now, t)).toBe('iot.device.secondsAgo:12');
    expect(formatAge(now + 2_000, now, t)).toBe('iot.device.secondsAgo:0');
    expect(formatAge(now - 5 * 60_000, now, t)).toBe('format.minutesAgo:5');
  });

  it('is stale once a report is missed by more than half the interval', () => {
    expect(isStale(now - 80_000, now, 60_000)).toBe(false);
    expect(isStale(now - 95_000, now, 60_000)).toBe(true);
  });
});
