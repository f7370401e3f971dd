import { describe, expect, it } from 'vitest';
import { seriesByKey } from './history-series';

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
