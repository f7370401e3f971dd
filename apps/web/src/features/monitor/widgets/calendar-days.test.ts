import { describe, expect, it } from 'vitest';
import { dayRange, daysBetween, localDay, shiftDay } from './calendar-days';

describe('localDay', () => {
  it('names the day of an instant in the zone', () => {
    expect(localDay(Date.parse('2025-06-01T20:00:00Z'), 'Asia/Shanghai')).toBe('2025-06-02');
    expect(localDay(Date.parse('2025-06-01T20:00:00Z'), 'UTC')).toBe('2025-06-01');
  });
});

describe('daysBetween', () => {
  it('lists every day of the range in the zone', () => {
    expect(
      daysBetween(Date.parse('2025-06-01T20:00:00Z'), Date.parse('2025-06-03T01:00:00Z'), 'UTC'),
    ).toEqual(['2025-06-01', '2025-06-02', '2025-06-03']);
  });
});

describe('shiftDay and dayRange', () => {
  it('count calendar days across months and leap days', () => {
    expect(shiftDay('2024-02-28', 1)).toBe('2024-02-29');
    expect(shiftDay('2025-03-01', -1)).toBe('2025-02-28');
    expect(dayRange('2025-12-30', '2026-01-02')).toEqual([
      '2025-12-30',
      '2025-12-31',
      '2026-01-01',
      '2026-01-02',
    ]);
    expect(dayRange('2025-01-02', '2025-01-01')).toEqual([]);
  });
});
