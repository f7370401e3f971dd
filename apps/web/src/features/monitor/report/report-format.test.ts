import type { AreaReport } from '@shuili/contract';
import { describe, expect, it } from 'vitest';
import { bucketText, pointRows, valueText } from './report-format';

describe('bucketText', () => {
  // 2026-03-04T16:00Z is midnight of the 5th in Shanghai.
  const at = Date.parse('2026-03-04T16:00:00Z');
  it('writes as much of the time as the bucket tells, in the tenant zone', () => {
    expect(bucketText(at, 'day', 'Asia/Shanghai')).toBe('2026-03-05');
    expect(bucketText(at, 'month', 'Asia/Shanghai')).toBe('2026-03');
    expect(bucketText(at, 'hour', 'Asia/Shanghai')).toBe('2026-03-05 00:00');
    expect(bucketText(at + 1500, 'raw', 'Asia/Shanghai')).toBe('2026-03-05 00:00:01');
    expect(bucketText(at, 'day', 'UTC')).toBe('2026-03-04');
  });
});

describe('valueText', () => {
  it('keeps the declared decimals, drops trailing zeros, and leaves gaps blank', () => {
    expect(valueText(12.3456, 2)).toBe('12.35');
    expect(valueText(12, 2)).toBe('12');
    expect(valueText(0.5, null)).toBe('0.5');
    expect(valueText(null, 2)).toBe('');
    expect(valueText(12345.6, 1)).toBe('12345.6');
  });
});

describe('pointRows', () => {
  it('puts every series on the union of the times, totals where a factor totals', () => {
    const report = {
      series: [
        { deviceId: '1', key: 'flow', at: [1, 3], avg: [10, 30] },
        { deviceId: '1', key: 'volume', at: [2, 3], avg: [500, 510], total: [4, 10] },
      ],
    } as unknown as AreaReport;
    expect(pointRows(report)).toEqual([
      { at: 1, values: { '1|flow': 10 } },
      { at: 2, values: { '1|volume': 4 } },
      { at: 3, values: { '1|flow': 30, '1|volume': 10 } },
    ]);
  });
});
