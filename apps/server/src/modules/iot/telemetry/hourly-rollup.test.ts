import { describe, expect, it } from 'vitest';
import { rollupServes, splitHours, wholeHourOffsets } from './hourly-rollup';

const at = (iso: string) => new Date(iso);

describe('hourly rollup', () => {
  it('serves zones a whole number of hours off UTC, not minute buckets', () => {
    const [start, end] = [at('2026-01-01T00:00:00Z'), at('2026-12-31T00:00:00Z')];
    expect(wholeHourOffsets('Asia/Shanghai', start, end)).toBe(true);
    expect(wholeHourOffsets('UTC', start, end)).toBe(true);
    // Summer time moves by whole hours.
    expect(wholeHourOffsets('Europe/Berlin', start, end)).toBe(true);
    expect(wholeHourOffsets('Asia/Kolkata', start, end)).toBe(false);
    expect(wholeHourOffsets('Asia/Kathmandu', start, end)).toBe(false);
    // Lord Howe Island: +10:30 in winter, +11 in summer.
    expect(wholeHourOffsets('Australia/Lord_Howe', start, end)).toBe(false);
    expect(rollupServes('hour', 'Asia/Shanghai', start, end)).toBe(true);
    expect(rollupServes('minute', 'Asia/Shanghai', start, start)).toBe(false);
  });

  it('splits a range into whole hours and raw edges', () => {
    expect(splitHours(at('2026-03-01T10:07:00Z'), at('2026-03-01T13:20:00Z'))).toEqual({
      fullFrom: at('2026-03-01T11:00:00Z'),
      fullTo: at('2026-03-01T13:00:00Z'),
    });
    // Aligned ends: the end instant itself is read raw (the range includes it).
    expect(splitHours(at('2026-03-01T10:00:00Z'), at('2026-03-01T12:00:00Z'))).toEqual({
      fullFrom: at('2026-03-01T10:00:00Z'),
      fullTo: at('2026-03-01T12:00:00Z'),
    });
    expect(splitHours(at('2026-03-01T10:07:00Z'), at('2026-03-01T10:59:00Z'))).toBeUndefined();
    expect(splitHours(at('2026-03-01T10:07:00Z'), at('2026-03-01T11:30:00Z'))).toBeUndefined();
  });
});
