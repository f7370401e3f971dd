import { describe, expect, it } from 'vitest';
import { curveBucket, withLivePoint } from './chart-range';

describe('curveBucket', () => {
  it('draws a day by minutes and a week by hours', () => {
    expect(curveBucket(24)).toBe('minute');
    expect(curveBucket(168)).toBe('hour');
  });
});

describe('withLivePoint', () => {
  it('appends a newer live value, and only that', () => {
    expect(withLivePoint([[10, 1]], 2, 20, 0)).toEqual([
      [10, 1],
      [20, 2],
    ]);
    expect(withLivePoint([[10, 1]], 2, 10, 0)).toEqual([[10, 1]]);
    expect(withLivePoint([[10, 1]], undefined, 20, 0)).toEqual([[10, 1]]);
    expect(withLivePoint([], 2, 5, 6)).toEqual([]);
  });
});
