import { describe, expect, it } from 'vitest';
import { autoBucket, axesOf, initialRange, seriesByKey, AXIS_GAP } from './history-series';

describe('seriesByKey', () => {
  it('groups raw and aggregate rows per key in time order, skipping empty values', () => {
    const series = seriesByKey([
      { key: 'level', ts: '2025-01-01T00:00:02Z', value: 2 },
      { key: 'level', ts: '2025-01-01T00:00:01Z', value: 1 },
      { key: 'flow', bucket: 5000, avg: 7 },
      { key: 'flow', bucket: 6000, avg: null },
    ]);
    expect(series.get('level')).toEqual([
      [Date.parse('2025-01-01T00:00:01Z'), 1],
      [Date.parse('2025-01-01T00:00:02Z'), 2],
    ]);
    expect(series.get('flow')).toEqual([[5000, 7]]);
  });
});

describe('axesOf', () => {
  it('gives each unit its own axis and states one shared axis', () => {
    const { axes, axisOf } = axesOf([
      { key: 'flow', type: 'number', unit: 'm³/h' },
      { key: 'cumulativeVolume', type: 'number', unit: 'm³' },
      { key: 'outletFlow', type: 'number', unit: 'm³/h' },
      { key: 'valve1State', type: 'enum' },
      { key: 'running', type: 'boolean' },
    ]);
    expect(axes.map((axis) => axis.unit)).toEqual(['m³/h', 'm³', undefined]);
    expect(axes.map((axis) => [axis.position, axis.offset])).toEqual([
      ['left', 0],
      ['right', 0],
      ['left', AXIS_GAP],
    ]);
    expect(Object.fromEntries(axisOf)).toEqual({
      flow: 0,
      cumulativeVolume: 1,
      outletFlow: 0,
      valve1State: 2,
      running: 2,
    });
  });

  it('keeps one axis for one unit', () => {
    const { axes } = axesOf([
      { key: 'upstreamLevel', type: 'number', unit: 'm' },
      { key: 'downstreamLevel', type: 'number', unit: 'm' },
    ]);
    expect(axes).toHaveLength(1);
  });
});

describe('autoBucket', () => {
  const hour = 3_600_000;
  it('follows the length of the range', () => {
    expect(autoBucket(0, hour)).toBe('raw');
    expect(autoBucket(0, 24 * hour)).toBe('minute');
    expect(autoBucket(0, 7 * 24 * hour)).toBe('hour');
    expect(autoBucket(0, 365 * 24 * hour)).toBe('day');
    expect(autoBucket(0, 5 * 365 * 24 * hour)).toBe('month');
  });
});

describe('initialRange', () => {
  const now = Date.parse('2025-06-10T12:00:00Z');
  const day = 24 * 3_600_000;
  it('is the last day when the device reported within it', () => {
    expect(initialRange(now - 3_600_000, now)).toEqual([now - day, now]);
    expect(initialRange(undefined, now)).toEqual([now - day, now]);
  });
  it('is the day up to the newest reading of a device silent for longer', () => {
    const newest = now - 10 * day;
    const [start, end] = initialRange(newest, now);
    expect(end).toBeGreaterThan(newest);
    expect(start).toBeLessThan(newest);
    expect(end - start).toBe(day);
  });
});
