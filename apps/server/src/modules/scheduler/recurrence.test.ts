import { describe, expect, it } from 'vitest';
import { instantOf, nextFireAfter, nextFireTime, recurrenceProblem } from './recurrence';

describe('recurrence in a time zone', () => {
  it('fires a daily rule at the local time of the zone, not of UTC', () => {
    // 2026-03-02 is a Monday; 06:00 in Shanghai is 22:00 UTC the day before.
    const after = new Date('2026-03-01T12:00:00Z');
    const next = nextFireAfter({ type: 'daily', at: '06:00' }, after, 'Asia/Shanghai');
    expect(next.toISOString()).toBe('2026-03-01T22:00:00.000Z');
    const utc = nextFireAfter({ type: 'daily', at: '06:00' }, after, 'UTC');
    expect(utc.toISOString()).toBe('2026-03-02T06:00:00.000Z');
  });

  it('skips the days of week not chosen (ISO: 1 Monday ... 7 Sunday)', () => {
    // Monday 2026-03-02 08:00 Shanghai has passed; Wednesday (3) and Friday (5) only.
    const after = new Date('2026-03-02T01:00:00Z'); // 09:00 Monday in Shanghai
    const rule = { type: 'daily' as const, at: '08:00', daysOfWeek: [3, 5] };
    const first = nextFireAfter(rule, after, 'Asia/Shanghai');
    expect(first.toISOString()).toBe('2026-03-04T00:00:00.000Z'); // Wednesday 08:00 local
    const second = nextFireAfter(rule, first, 'Asia/Shanghai');
    expect(second.toISOString()).toBe('2026-03-06T00:00:00.000Z'); // Friday 08:00 local
    const sunday = nextFireAfter({ ...rule, daysOfWeek: [7] }, second, 'Asia/Shanghai');
    expect(sunday.toISOString()).toBe('2026-03-08T00:00:00.000Z');
  });

  it('keeps the local time across a daylight-saving change', () => {
    // New York moves to summer time on 2026-03-08: 06:00 is 11:00 UTC before, 10:00 UTC after.
    const rule = { type: 'daily' as const, at: '06:00' };
    const before = nextFireAfter(rule, new Date('2026-03-07T00:00:00Z'), 'America/New_York');
    expect(before.toISOString()).toBe('2026-03-07T11:00:00.000Z');
    const after = nextFireAfter(rule, before, 'America/New_York');
    expect(after.toISOString()).toBe('2026-03-08T10:00:00.000Z');
    // 02:30 does not exist that night: it fires an hour on (03:30 summer time).
    const gap = instantOf(
      { year: 2026, month: 3, day: 8, hour: 2, minute: 30 },
      'America/New_York',
    );
    expect(gap.toISOString()).toBe('2026-03-08T07:30:00.000Z');
  });

  it('moves past occurrences missed while no node ran instead of replaying them', () => {
    const rule = { type: 'interval' as const, seconds: 600 };
    const fireAt = new Date('2026-03-01T00:00:00Z');
    const now = new Date('2026-03-01T01:05:00Z');
    expect(nextFireTime(rule, fireAt, now, 'UTC').toISOString()).toBe('2026-03-01T01:10:00.000Z');
    const daily = { type: 'daily' as const, at: '06:00' };
    const late = nextFireTime(
      daily,
      new Date('2026-03-01T06:00:00Z'),
      new Date('2026-03-03T07:00:00Z'),
      'UTC',
    );
    expect(late.toISOString()).toBe('2026-03-04T06:00:00.000Z');
  });

  it('names what is wrong with a rule', () => {
    expect(recurrenceProblem({ type: 'daily', at: '24:00' })).toContain('HH:mm');
    expect(recurrenceProblem({ type: 'daily', at: '06:00', daysOfWeek: [0] })).toContain('Monday');
    expect(recurrenceProblem({ type: 'interval', seconds: 0 })).toBeDefined();
    expect(recurrenceProblem({ type: 'daily', at: '23:59', daysOfWeek: [1, 7] })).toBeUndefined();
  });
});
