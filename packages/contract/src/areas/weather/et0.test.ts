import { describe, expect, it } from 'vitest';
import { dailyEt0, dayOfYear, wattsToDailyMegajoules, windAt2m } from './et0';

/** FAO-56 Example 18: Brussels, 6 July, 50°48' N, 100 m (RESEARCH.md). */
const EXAMPLE_18 = {
  tMax: 21.5,
  tMin: 12.3,
  rhMax: 84,
  rhMin: 63,
  windSpeed: 2.78,
  windHeight: 10,
  sunshineHours: 9.25,
  altitude: 100,
  latitude: 50 + 48 / 60,
  dayOfYear: dayOfYear(2025, 7, 6),
};

describe('FAO-56 Penman-Monteith ET0', () => {
  it('reproduces every intermediate of Example 18 and its 3.9 mm/day', () => {
    expect(EXAMPLE_18.dayOfYear).toBe(187);
    const day = dailyEt0(EXAMPLE_18);
    expect(day.u2).toBeCloseTo(2.078, 2);
    expect(day.es).toBeCloseTo(1.997, 3);
    expect(day.ea).toBeCloseTo(1.409, 3);
    expect(day.delta).toBeCloseTo(0.1221, 4);
    expect(day.gamma).toBeCloseTo(0.0666, 4);
    expect(day.ra).toBeCloseTo(41.09, 1);
    expect(day.daylightHours).toBeCloseTo(16.1, 1);
    expect(day.rs).toBeCloseTo(22.07, 1);
    expect(day.rso).toBeCloseTo(30.9, 1);
    expect(day.rnl).toBeCloseTo(3.71, 1);
    expect(day.rn).toBeCloseTo(13.28, 1);
    expect(Math.abs(day.et0 - 3.9)).toBeLessThanOrEqual(0.05);
  });

  it('takes measured radiation instead of sunshine hours (Example 18 with its Rs)', () => {
    const { sunshineHours: _sunshine, ...measured } = EXAMPLE_18;
    const day = dailyEt0({ ...measured, solarRadiation: 22.07 });
    expect(day.rs).toBe(22.07);
    expect(Math.abs(day.et0 - 3.9)).toBeLessThanOrEqual(0.05);
    // A brighter day evaporates more, all else equal.
    expect(dailyEt0({ ...measured, solarRadiation: 28 }).et0).toBeGreaterThan(day.et0 + 0.5);
  });

  it('reproduces Example 17 (Bangkok, April: measured ea, radiation, monthly G) to 0.1 mm', () => {
    // 13°44' N, 2 m, Tmax 34.8, Tmin 25.6 °C, ea 2.85 kPa, u2 2 m/s, Rs 22.65, G 0.14 → 5.72.
    const day = dailyEt0({
      tMax: 34.8,
      tMin: 25.6,
      ea: 2.85,
      windSpeed: 2,
      solarRadiation: 22.65,
      altitude: 2,
      latitude: 13 + 44 / 60,
      dayOfYear: 105,
      soilHeatFlux: 0.14,
    });
    expect(day.es).toBeCloseTo(4.42, 2);
    expect(day.delta).toBeCloseTo(0.246, 3);
    expect(day.ra).toBeCloseTo(38.06, 0);
    expect(day.rn).toBeCloseTo(14.33, 1);
    expect(Math.abs(day.et0 - 5.72)).toBeLessThanOrEqual(0.1);
  });

  it('converts wind to 2 m and irradiance to daily energy', () => {
    expect(windAt2m(3, 2)).toBe(3);
    expect(windAt2m(2.78, 10)).toBeCloseTo(2.078, 2);
    expect(wattsToDailyMegajoules(255.44)).toBeCloseTo(22.07, 2);
  });

  it('refuses a day without humidity or radiation rather than guessing', () => {
    const { rhMax: _rh, ...noHumidity } = EXAMPLE_18;
    expect(() => dailyEt0(noHumidity)).toThrow(/RHmax/);
    const { sunshineHours: _n, ...noLight } = EXAMPLE_18;
    expect(() => dailyEt0(noLight)).toThrow(/radiation/);
  });

  it('stays finite above the polar circle', () => {
    const winter = dailyEt0({ ...EXAMPLE_18, latitude: 75, dayOfYear: 355, tMax: -5, tMin: -12 });
    expect(Number.isFinite(winter.et0)).toBe(true);
    expect(winter.ra).toBe(0);
    const summer = dailyEt0({ ...EXAMPLE_18, latitude: 75 });
    expect(summer.daylightHours).toBeCloseTo(24, 5);
  });
});
