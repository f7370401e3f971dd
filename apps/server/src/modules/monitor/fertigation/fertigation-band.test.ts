import { describe, expect, it } from 'vitest';
import { offBandReason } from './fertigation-band';

const at = (seconds: number) => new Date(Date.UTC(2025, 6, 6, 8, 0, seconds));
const EC = { key: 'ec' as const, target: 2, band: 0.5 };
const PH = { key: 'ph' as const, target: 6, band: 0.5 };
const phaseEnd = at(3600);

describe('EC and pH band watch', () => {
  it('stops after more than a minute outside the band, by the readings own times', () => {
    const readings = [
      { key: 'ec', ts: at(0), value: 2.1 },
      { key: 'ec', ts: at(10), value: 3.2 },
      { key: 'ec', ts: at(71), value: 3.4 },
    ];
    expect(offBandReason(readings, [EC, PH], at(71), phaseEnd)).toEqual({
      key: 'monitor.fertigation.ecOutOfBand',
      params: { value: 3.4, low: 1.5, high: 2.5 },
    });
    // 60 s exactly is not more than a minute.
    expect(offBandReason(readings.slice(0, 2), [EC], at(70), phaseEnd)).toBeUndefined();
  });

  it('forgives a streak a reading inside the band breaks', () => {
    const readings = [
      { key: 'ph', ts: at(0), value: 7 },
      { key: 'ph', ts: at(50), value: 6.2 },
      { key: 'ph', ts: at(100), value: 7.1 },
    ];
    expect(offBandReason(readings, [PH], at(120), phaseEnd)).toBeUndefined();
    expect(offBandReason(readings, [PH], at(161), phaseEnd)?.key).toBe(
      'monitor.fertigation.phOutOfBand',
    );
  });

  it('counts on while the machine is silent, but not past the fertilizer phase', () => {
    const readings = [{ key: 'ec', ts: at(0), value: 0.2 }];
    expect(offBandReason(readings, [EC], at(61), phaseEnd)?.key).toBe(
      'monitor.fertigation.ecOutOfBand',
    );
    expect(offBandReason(readings, [EC], at(500), at(30))).toBeUndefined();
  });
});
