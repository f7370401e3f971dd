import {
  NATIONAL_RAIN_SIGNALS,
  RAIN_WINDOWS,
  rainWarningOf,
  rainWindowKey,
} from '@shuili/contract';
import { describe, expect, it } from 'vitest';
import { rainAmounts, windowSums, type RainPoint } from './rolling-rain';

const HOUR = 3_600_000;
const at = Date.parse('2026-07-01T12:00:00Z');
const ago = (minutes: number) => at - minutes * 60_000;

describe('rolling rain sums', () => {
  it('sums interval rain per window, (at − window, at]', () => {
    const points: RainPoint[] = [
      { ms: ago(30), value: 4 },
      { ms: ago(60), value: 1 }, // exactly 1 h before: outside the 1 h window
      { ms: ago(170), value: 10 },
      { ms: ago(11 * 60), value: 20 },
      { ms: ago(23 * 60), value: 5 },
      { ms: ago(25 * 60), value: 99 }, // older than a day
      { ms: at + 60_000, value: 7 }, // after `at`
    ];
    expect(windowSums(rainAmounts(points, 'interval'), at)).toEqual({
      h1: 4,
      h3: 15,
      h6: 15,
      h12: 35,
      h24: 40,
    });
  });

  it("counts a counter's steps, a reset from zero, and a repeated reading once", () => {
    const base = { ms: ago(25 * 60), value: 118.2 };
    const points: RainPoint[] = [
      { ms: ago(200), value: 120.4 }, // +2.2 over the base
      { ms: ago(150), value: 125.0 }, // +4.6
      { ms: ago(150), value: 125.0 }, // the same reading again: nothing
      { ms: ago(100), value: 1.5 }, // reset: 1.5 since zero
      { ms: ago(50), value: 3.0 }, // +1.5
      { ms: ago(20), value: 3.0 }, // no rain
    ];
    expect(windowSums(rainAmounts(points, 'counter', base), at)).toEqual({
      h1: 1.5,
      h3: 7.6,
      h6: 9.8,
      h12: 9.8,
      h24: 9.8,
    });
    // Without a reading before the window the first one only sets where the counter stood.
    expect(windowSums(rainAmounts(points, 'counter'), at).h24).toBe(7.6);
  });

  it('never sums less over a wider window, whatever the readings', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    for (let round = 0; round < 200; round++) {
      const points: RainPoint[] = Array.from({ length: 60 }, () => ({
        ms: at - random() * 26 * HOUR,
        value: Math.round(random() * 120) / 10,
      }));
      for (const source of ['interval', 'counter'] as const) {
        const sums = windowSums(rainAmounts(points, source), at);
        const values = RAIN_WINDOWS.map((hours) => sums[rainWindowKey(hours)]);
        for (let i = 1; i < values.length; i++)
          expect(values[i]!).toBeGreaterThanOrEqual(values[i - 1]!);
      }
    }
  });

  it('takes the highest signal reached, at exactly its threshold', () => {
    const sums = (h3: number, h6: number, h12: number) => ({ h1: 0, h3, h6, h12, h24: h12 });
    expect(rainWarningOf(sums(49.9, 49.9, 49.9), NATIONAL_RAIN_SIGNALS)).toBeUndefined();
    expect(rainWarningOf(sums(10, 20, 50), NATIONAL_RAIN_SIGNALS)?.level).toBe('blue');
    expect(rainWarningOf(sums(10, 50, 50), NATIONAL_RAIN_SIGNALS)?.level).toBe('yellow');
    expect(rainWarningOf(sums(50, 50, 50), NATIONAL_RAIN_SIGNALS)).toEqual({
      level: 'orange',
      window: 3,
      value: 50,
      threshold: 50,
    });
    expect(rainWarningOf(sums(100, 100, 100), NATIONAL_RAIN_SIGNALS)?.level).toBe('red');
  });
});
