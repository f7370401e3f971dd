import { SOIL_WATER_LIMITS } from '@shuili/contract';
import { describe, expect, it } from 'vitest';
import type { Point } from './counter-increase';
import { moistureState, profileAt, soilLimits, valueAt } from './soil-profile';

const H = 3_600_000;
const T0 = Date.parse('2025-06-08T00:00:00Z');

describe('valueAt', () => {
  const points: Point[] = [
    [T0 - 3 * H, 20],
    [T0 - H, 22],
    [T0 + H, 30],
  ];
  it('answers the newest value at or before the instant', () => {
    expect(valueAt(points, T0, 2 * H)).toBe(22);
    expect(valueAt(points, T0 - H, 0)).toBe(22);
  });
  it('answers nothing when that value is too old or nothing came before', () => {
    expect(valueAt(points, T0, H / 2)).toBeUndefined();
    expect(valueAt(points, T0 - 4 * H, 10 * H)).toBeUndefined();
  });
});

describe('profileAt', () => {
  it('reads each depth from its own key, top to bottom', () => {
    const series = new Map<string, Point[]>([
      ['soilMoisture10', [[T0, 18]]],
      ['soilMoisture20', [[T0, 21]]],
      ['soilMoisture60', [[T0 - 30 * H, 30]]],
    ]);
    expect(profileAt(series, T0 + H, 3 * H)).toEqual([18, 21, undefined, undefined]);
  });
});

describe('soilLimits', () => {
  it('follows the soil type, loam when unknown', () => {
    expect(soilLimits('clay')).toEqual(SOIL_WATER_LIMITS.clay);
    expect(soilLimits('peat')).toEqual(SOIL_WATER_LIMITS.loam);
    expect(soilLimits(undefined)).toEqual(SOIL_WATER_LIMITS.loam);
  });
});

describe('moistureState', () => {
  const loam = SOIL_WATER_LIMITS.loam; // FC 27, WP 12: half of the available water at 19.5
  it('grades moisture against wilting point, half the available water and field capacity', () => {
    expect(moistureState(12, loam)).toBe('dry');
    expect(moistureState(19, loam)).toBe('low');
    expect(moistureState(19.5, loam)).toBe('good');
    expect(moistureState(27, loam)).toBe('good');
    expect(moistureState(27.1, loam)).toBe('wet');
  });
});
