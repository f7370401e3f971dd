import { describe, expect, it } from 'vitest';
import { CRON_EXAMPLES, cronProblem, nextCronTime, nextCronTimes } from './cron';

/** Fire times as ISO strings (UTC), the way the expected instants below are written by hand. */
function runs(expression: string, after: string, timeZone: string, count: number): string[] {
  return nextCronTimes(expression, new Date(after), timeZone, count).map((d) => d.toISOString());
}

// 2026-11-27 is a Friday.
const FRIDAY = '2026-11-27T00:00:00.000Z';

describe('nextCronTimes', () => {
  it('fires every second, strictly after the start', () => {
    expect(runs('* * * * * ?', FRIDAY, 'UTC', 3)).toEqual([
      '2026-11-27T00:00:01.000Z',
      '2026-11-27T00:00:02.000Z',
      '2026-11-27T00:00:03.000Z',
    ]);
    expect(runs('* * * * * ?', '2026-11-27T00:00:00.400Z', 'UTC', 1)).toEqual([
      '2026-11-27T00:00:01.000Z',
    ]);
  });

  it('reads Quartz steps from a number (0/30, 5/10) and from *', () => {
    expect(runs('0/30 * * * * ?', '2026-11-27T00:00:10Z', 'Asia/Shanghai', 3)).toEqual([
      '2026-11-27T00:00:30.000Z',
      '2026-11-27T00:01:00.000Z',
      '2026-11-27T00:01:30.000Z',
    ]);
    expect(runs('5/10 * * * * ?', '2026-11-27T00:00:50Z', 'UTC', 3)).toEqual([
      '2026-11-27T00:00:55.000Z',
      '2026-11-27T00:01:05.000Z',
      '2026-11-27T00:01:15.000Z',
    ]);
    expect(runs('0 */20 * * * ?', FRIDAY, 'UTC', 2)).toEqual([
      '2026-11-27T00:20:00.000Z',
      '2026-11-27T00:40:00.000Z',
    ]);
  });

  it('fires daily at 02:00 on the wall clock of the zone', () => {
    // 08:00 in Shanghai: the next 02:00 there is the 28th, 18:00 UTC the day before.
    expect(runs('0 0 2 * * ?', FRIDAY, 'Asia/Shanghai', 2)).toEqual([
      '2026-11-27T18:00:00.000Z',
      '2026-11-28T18:00:00.000Z',
    ]);
    expect(runs('0 0 2 * * ?', FRIDAY, 'UTC', 2)).toEqual([
      '2026-11-27T02:00:00.000Z',
      '2026-11-28T02:00:00.000Z',
    ]);
  });

  it('fires on Mondays, by name and by Quartz number 2', () => {
    const mondays = ['2026-11-29T22:30:00.000Z', '2026-12-06T22:30:00.000Z'];
    expect(runs('0 30 6 ? * MON', FRIDAY, 'Asia/Shanghai', 2)).toEqual(mondays);
    expect(runs('0 30 6 ? * 2', FRIDAY, 'Asia/Shanghai', 2)).toEqual(mondays);
    expect(runs('0 30 6 ? * mon', FRIDAY, 'Asia/Shanghai', 2)).toEqual(mondays);
  });

  it('reads Quartz weekday numbers 1=SUN..7=SAT in ranges, lists and wrapping ranges', () => {
    const weekdays = [
      '2026-11-30T09:00:00.000Z',
      '2026-12-01T09:00:00.000Z',
      '2026-12-02T09:00:00.000Z',
      '2026-12-03T09:00:00.000Z',
      '2026-12-04T09:00:00.000Z',
      '2026-12-07T09:00:00.000Z',
    ];
    const afterFridayNine = '2026-11-27T10:00:00Z';
    expect(runs('0 0 9 ? * 2-6', afterFridayNine, 'UTC', 6)).toEqual(weekdays);
    expect(runs('0 0 9 ? * MON-FRI', afterFridayNine, 'UTC', 6)).toEqual(weekdays);
    expect(runs('0 0 9 ? * 1,7', afterFridayNine, 'UTC', 3)).toEqual([
      '2026-11-28T09:00:00.000Z',
      '2026-11-29T09:00:00.000Z',
      '2026-12-05T09:00:00.000Z',
    ]);
    expect(runs('0 0 9 ? * FRI-MON', afterFridayNine, 'UTC', 4)).toEqual([
      '2026-11-28T09:00:00.000Z',
      '2026-11-29T09:00:00.000Z',
      '2026-11-30T09:00:00.000Z',
      '2026-12-04T09:00:00.000Z',
    ]);
    // A lone L in day-of-week is Saturday.
    expect(runs('0 0 9 ? * L', afterFridayNine, 'UTC', 1)).toEqual(['2026-11-28T09:00:00.000Z']);
  });

  it('wraps hour ranges past midnight', () => {
    expect(runs('0 0 22-1 * * ?', '2026-11-27T12:00:00Z', 'UTC', 5)).toEqual([
      '2026-11-27T22:00:00.000Z',
      '2026-11-27T23:00:00.000Z',
      '2026-11-28T00:00:00.000Z',
      '2026-11-28T01:00:00.000Z',
      '2026-11-28T22:00:00.000Z',
    ]);
  });

  it('fires on the last day of the month, 28th in Feb 2027 and 29th in Feb 2028', () => {
    expect(runs('0 0 23 L * ?', '2027-02-01T00:00:00Z', 'UTC', 2)).toEqual([
      '2027-02-28T23:00:00.000Z',
      '2027-03-31T23:00:00.000Z',
    ]);
    expect(runs('0 0 23 L * ?', '2028-02-01T00:00:00Z', 'UTC', 1)).toEqual([
      '2028-02-29T23:00:00.000Z',
    ]);
    // 23:00 in Shanghai is 15:00 UTC the same day.
    expect(runs('0 0 23 L * ?', '2027-02-01T00:00:00Z', 'Asia/Shanghai', 1)).toEqual([
      '2027-02-28T15:00:00.000Z',
    ]);
  });

  it('fires on the nearest weekday (W, LW) without leaving the month', () => {
    // 2027-05-15 is a Saturday, 2027-08-15 a Sunday, 2027-05-01 a Saturday.
    expect(runs('0 0 9 15W * ?', '2027-05-01T00:00:00Z', 'UTC', 1)).toEqual([
      '2027-05-14T09:00:00.000Z',
    ]);
    expect(runs('0 0 9 15W * ?', '2027-08-01T00:00:00Z', 'UTC', 1)).toEqual([
      '2027-08-16T09:00:00.000Z',
    ]);
    expect(runs('0 0 9 1W * ?', '2027-04-30T12:00:00Z', 'UTC', 1)).toEqual([
      '2027-05-03T09:00:00.000Z',
    ]);
    // February 2027 ends on a Sunday: its last weekday is Friday the 26th.
    expect(runs('0 0 9 LW * ?', '2027-02-01T00:00:00Z', 'UTC', 1)).toEqual([
      '2027-02-26T09:00:00.000Z',
    ]);
  });

  it('fires on the third Friday (6#3) and the last Friday (6L)', () => {
    expect(runs('0 0 9 ? * 6#3', FRIDAY, 'Asia/Shanghai', 3)).toEqual([
      '2026-12-18T01:00:00.000Z',
      '2027-01-15T01:00:00.000Z',
      '2027-02-19T01:00:00.000Z',
    ]);
    expect(runs('0 0 9 ? * FRI#3', FRIDAY, 'Asia/Shanghai', 1)).toEqual([
      '2026-12-18T01:00:00.000Z',
    ]);
    // 09:00 in Shanghai on Friday the 27th is still ahead at midnight UTC.
    expect(runs('0 0 9 ? * 6L', FRIDAY, 'Asia/Shanghai', 2)).toEqual([
      '2026-11-27T01:00:00.000Z',
      '2026-12-25T01:00:00.000Z',
    ]);
  });

  it('reads month names and lists', () => {
    expect(runs('0 0 0 1 JAN,JUL ?', FRIDAY, 'UTC', 2)).toEqual([
      '2027-01-01T00:00:00.000Z',
      '2027-07-01T00:00:00.000Z',
    ]);
  });

  it('keeps the wall clock across a DST change (New York, 2027-03-14)', () => {
    expect(runs('0 0 9 * * ?', '2027-03-12T00:00:00Z', 'America/New_York', 3)).toEqual([
      '2027-03-12T14:00:00.000Z',
      '2027-03-13T14:00:00.000Z',
      '2027-03-14T13:00:00.000Z',
    ]);
  });

  it('honours the year field', () => {
    expect(runs('0 0 12 1 1 ? 2028', FRIDAY, 'UTC', 3)).toEqual(['2028-01-01T12:00:00.000Z']);
    expect(
      nextCronTime('0 0 12 1 1 ? 2028', new Date(FRIDAY), 'Asia/Shanghai')?.toISOString(),
    ).toBe('2028-01-01T04:00:00.000Z');
    expect(nextCronTime('0 0 12 1 1 ? 2020', new Date(FRIDAY), 'UTC')).toBeUndefined();
  });

  it('throws on an invalid expression', () => {
    expect(() => nextCronTimes('0 0 0 1 * MON', new Date(FRIDAY), 'UTC', 1)).toThrow(/dayOfWeek/);
    expect(() => nextCronTime('* * * * *', new Date(FRIDAY), 'UTC')).toThrow();
  });

  it('previews five runs quickly enough to follow typing', () => {
    const start = performance.now();
    for (let i = 0; i < 50; i++)
      nextCronTimes('0 0 9 ? * 6#3', new Date(FRIDAY), 'Asia/Shanghai', 5);
    // About 0.2 ms each on a quiet machine; the bound leaves room for a busy one.
    expect((performance.now() - start) / 50).toBeLessThan(5);
  });
});

describe('cronProblem', () => {
  it('accepts the examples, 7 fields and * beside ?', () => {
    for (const example of CRON_EXAMPLES) {
      expect(cronProblem(example.expression), example.expression).toBeUndefined();
      expect(Object.keys(example.label).sort()).toEqual(['en', 'tw', 'zh']);
    }
    expect(cronProblem('0 0 12 1 1 ? 2099')).toBeUndefined();
    expect(cronProblem('0 0 12 * * ? *')).toBeUndefined();
    expect(cronProblem('0 0 12 ? * *')).toBeUndefined();
  });

  it('wants 6 or 7 fields', () => {
    expect(cronProblem('0 0 * * *')).toMatchObject({ code: 'fields' });
    expect(cronProblem('0 0 0 * * ? 2030 1')).toMatchObject({ code: 'fields' });
    expect(cronProblem('')).toMatchObject({ code: 'fields' });
    expect(cronProblem('garbage')).toMatchObject({ code: 'fields' });
  });

  it('names the field with a bad value', () => {
    expect(cronProblem('60 * * * * ?')).toMatchObject({ code: 'syntax', field: 'second' });
    expect(cronProblem('0 60 * * * ?')).toMatchObject({ code: 'syntax', field: 'minute' });
    expect(cronProblem('0 0 24 * * ?')).toMatchObject({ code: 'syntax', field: 'hour' });
    expect(cronProblem('0 0 0 32 * ?')).toMatchObject({ code: 'syntax', field: 'dayOfMonth' });
    expect(cronProblem('0 0 0 1 13 ?')).toMatchObject({ code: 'syntax', field: 'month' });
    expect(cronProblem('0 0 0 ? * 0')).toMatchObject({ code: 'syntax', field: 'dayOfWeek' });
    expect(cronProblem('0 0 0 ? * 8')).toMatchObject({ code: 'syntax', field: 'dayOfWeek' });
    expect(cronProblem('0 0 0 ? * 6#6')).toMatchObject({ code: 'syntax', field: 'dayOfWeek' });
    expect(cronProblem('0 0 0 1 1 ? 1969')).toMatchObject({ code: 'syntax', field: 'year' });
    expect(cronProblem('a b c d e f')).toMatchObject({ code: 'syntax', field: 'second' });
    expect(cronProblem('0/0 * * * * ?')).toMatchObject({ code: 'syntax', field: 'second' });
    expect(cronProblem('0/60 * * * * ?')).toMatchObject({ code: 'syntax', field: 'second' });
    expect(cronProblem('1,,2 * * * * ?')).toMatchObject({ code: 'syntax', field: 'second' });
    expect(cronProblem('0 0 0 ? ? ?')).toMatchObject({ code: 'syntax', field: 'month' });
    expect(cronProblem('0 0 0 L-3 * ?')).toMatchObject({ code: 'syntax', field: 'dayOfMonth' });
  });

  it('wants exactly one of day-of-month and day-of-week to be ?', () => {
    expect(cronProblem('0 0 0 1 * MON')).toMatchObject({
      code: 'questionMark',
      field: 'dayOfWeek',
    });
    expect(cronProblem('0 0 0 * * *')).toMatchObject({ code: 'questionMark' });
    expect(cronProblem('0 0 0 * * MON')).toMatchObject({
      code: 'questionMark',
      field: 'dayOfMonth',
    });
    expect(cronProblem('0 0 0 ? * ?')).toMatchObject({ code: 'questionMark' });
  });

  it('reports an expression that never fires again', () => {
    expect(cronProblem('0 0 12 1 1 ? 2020')).toMatchObject({ code: 'never' });
    expect(cronProblem('0 0 12 31 2 ?')).toMatchObject({ code: 'never' });
  });
});
