import { describe, expect, it } from 'vitest';
import { CALM_BELOW, pairWind, sectorOf, speedClassOf, windRose } from './wind-rose';

describe('sectorOf', () => {
  it('centres sectors on their bearing, north either side of 0°', () => {
    expect(sectorOf(0)).toBe(0);
    expect(sectorOf(355)).toBe(0);
    expect(sectorOf(11.24)).toBe(0);
    expect(sectorOf(11.25)).toBe(1);
    expect(sectorOf(90)).toBe(4);
    expect(sectorOf(348.75)).toBe(0);
    expect(sectorOf(348.7)).toBe(15);
    expect(sectorOf(360)).toBe(0);
    expect(sectorOf(-90)).toBe(12);
  });
});

describe('speedClassOf', () => {
  it('puts a speed in the first class whose upper limit it is below', () => {
    expect(speedClassOf(1)).toBe(0);
    expect(speedClassOf(1.6)).toBe(1);
    expect(speedClassOf(9)).toBe(4);
    expect(speedClassOf(30)).toBe(5);
  });
});

describe('pairWind', () => {
  it('pairs direction and speed measured at the same instant, and drops the rest', () => {
    const samples = pairWind([
      { key: 'windDirection', ts: '2025-06-01T00:00:00Z', value: 90 },
      { key: 'windSpeed', ts: '2025-06-01T00:00:00.000Z', value: 4 },
      { key: 'windSpeed', ts: '2025-06-01T00:05:00Z', value: 5 },
      { key: 'windDirection', ts: '2025-06-01T00:10:00Z', value: null },
      { key: 'windSpeed', ts: '2025-06-01T00:10:00Z', value: 2 },
      { key: 'airTemperature', ts: '2025-06-01T00:00:00Z', value: 20 },
    ]);
    expect(samples).toEqual([{ direction: 90, speed: 4 }]);
  });
});

describe('windRose', () => {
  it('gives each sector and class its share of all samples, calm apart', () => {
    const rose = windRose([
      { direction: 0, speed: 2 },
      { direction: 350, speed: 2 },
      { direction: 90, speed: 12 },
      { direction: 180, speed: CALM_BELOW / 2 },
    ]);
    expect(rose.total).toBe(4);
    expect(rose.calmPercent).toBe(25);
    expect(rose.percent[1]![0]).toBe(50);
    expect(rose.percent[5]![4]).toBe(25);
    const sum = rose.percent.flat().reduce((a, b) => a + b, 0) + rose.calmPercent;
    expect(sum).toBeCloseTo(100);
    expect(rose.prevailing).toBe(0);
  });

  it('is empty without samples', () => {
    const rose = windRose([]);
    expect(rose.total).toBe(0);
    expect(rose.prevailing).toBeUndefined();
    expect(rose.percent.flat().every((share) => share === 0)).toBe(true);
  });
});
