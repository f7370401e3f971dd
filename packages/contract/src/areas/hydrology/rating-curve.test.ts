import { describe, expect, it } from 'vitest';
import { ratedFlow, ratingCurvePoints } from './rating-curve';

describe('the rating curve Q = a·(H − H0)^b', () => {
  const curve = { a: 10, h0: 0.5, b: 1.6 };

  it('gives the check vector (RESEARCH.md): Q(1.5) = 10.00, Q(2.5) = 30.31', () => {
    expect(ratedFlow(curve, 1.5).toFixed(2)).toBe('10.00');
    expect(ratedFlow(curve, 2.5).toFixed(2)).toBe('30.31');
  });

  it('is 0 at and below H0, never a NaN from a negative head', () => {
    expect(ratedFlow(curve, 0.5)).toBe(0);
    expect(ratedFlow(curve, 0.2)).toBe(0);
    expect(ratedFlow(curve, -1)).toBe(0);
  });

  it('draws from H0 upwards, rising', () => {
    const points = ratingCurvePoints(curve, 2, 4);
    expect(points.map(([h]) => h)).toEqual([0.5, 1, 1.5, 2, 2.5]);
    expect(points[0]![1]).toBe(0);
    expect(points[2]![1]).toBeCloseTo(10, 10);
    for (let i = 1; i < points.length; i++)
      expect(points[i]![1]).toBeGreaterThan(points[i - 1]![1]);
  });
});
