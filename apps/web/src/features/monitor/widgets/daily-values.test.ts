import { describe, expect, it } from 'vitest';
import { dailyValues } from './daily-values';

describe('dailyValues', () => {
  it('reads a list of days by any of the day fields, summing a day given twice', () => {
    const days = dailyValues(
      {
        list: [
          { day: '2025-06-01', et0: 3.9 },
          { date: '2025-06-02', et0: 4 },
          { bucket: '2025-06-02', et0: 0.5 },
          { day: '2025-06-03', et0: null },
          { day: 'yesterday', et0: 1 },
        ],
      },
      'et0',
    );
    expect([...days]).toEqual([
      ['2025-06-01', 3.9],
      ['2025-06-02', 4.5],
    ]);
  });

  it('cuts instants into the days of the given time zone', () => {
    const days = dailyValues(
      [
        { bucket: '2025-06-01T16:00:00.000Z', liters: 5 },
        { bucket: '2025-06-01T15:59:00.000Z', liters: 2 },
      ],
      'liters',
      'Asia/Shanghai',
    );
    expect([...days]).toEqual([
      ['2025-06-02', 5],
      ['2025-06-01', 2],
    ]);
  });

  it('keeps only the items asked for, and reads nothing from anything else', () => {
    const answer = [
      { day: '2025-06-01', key: 'channelAFlow', liters: 5 },
      { day: '2025-06-01', key: 'channelBFlow', liters: 7 },
    ];
    expect([
      ...dailyValues(answer, 'liters', 'UTC', (item) => item.key === 'channelBFlow'),
    ]).toEqual([['2025-06-01', 7]]);
    expect(dailyValues(undefined, 'volume').size).toBe(0);
    expect(dailyValues({ list: 'x' }, 'volume').size).toBe(0);
  });
});
