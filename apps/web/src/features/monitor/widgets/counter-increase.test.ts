import { describe, expect, it } from 'vitest';
import { counterIncreases, sumByDay, type Point } from './counter-increase';

const H = 3_600_000;
const T0 = Date.parse('2025-06-01T00:00:00Z');

describe('counterIncreases', () => {
  it('answers the growth between samples, in time order', () => {
    expect(
      counterIncreases([
        [T0 + 2 * H, 130],
        [T0, 100],
        [T0 + H, 110],
      ]),
    ).toEqual([
      [T0 + H, 10],
      [T0 + 2 * H, 20],
    ]);
  });

  it('counts a reset counter from zero, never as a negative increase', () => {
    expect(
      counterIncreases([
        [T0, 5000],
        [T0 + H, 5010],
        [T0 + 2 * H, 4],
        [T0 + 3 * H, 9],
      ]),
    ).toEqual([
      [T0 + H, 10],
      [T0 + 2 * H, 4],
      [T0 + 3 * H, 5],
    ]);
  });

  it('has nothing to say about one sample', () => {
    expect(counterIncreases([[T0, 1]])).toEqual([]);
  });
});

describe('sumByDay', () => {
  it('cuts days in the given time zone', () => {
    // 17:00 UTC is 01:00 the next day in Shanghai (UTC+8).
    const points: Point[] = [
      [Date.parse('2025-06-01T10:00:00Z'), 3],
      [Date.parse('2025-06-01T15:00:00Z'), 4],
      [Date.parse('2025-06-01T17:00:00Z'), 5],
    ];
    expect([...sumByDay(points, 'Asia/Shanghai')]).toEqual([
      ['2025-06-01', 7],
      ['2025-06-02', 5],
    ]);
    expect([...sumByDay(points, 'UTC')]).toEqual([['2025-06-01', 12]]);
  });
});
