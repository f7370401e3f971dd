import { describe, expect, it } from 'vitest';
import { totalOf, volumesFromRates } from './flow-volume';

describe('volumesFromRates', () => {
  it('turns average hourly rates into volumes, skipping idle and missing buckets', () => {
    const volumes = volumesFromRates(
      [
        [0, 120],
        [1, 0],
        [2, Number.NaN],
        [3, 60],
      ],
      1,
    );
    expect(volumes).toEqual([
      [0, 120],
      [3, 60],
    ]);
    expect(totalOf(volumes)).toBe(180);
  });

  it('scales by the bucket length', () => {
    expect(volumesFromRates([[0, 100]], 24)).toEqual([[0, 2400]]);
  });
});
