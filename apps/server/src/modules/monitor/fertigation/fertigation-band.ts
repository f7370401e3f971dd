import type { RunReason } from './fertigation-run.repo';

/** How long EC or pH may stay outside its band before a run stops (DOMAINS.md). */
export const OFF_BAND_GRACE_MS = 60_000;

/** One watched quantity: its readings' key, the recipe's target and the area's band. */
export interface BandWatch {
  key: 'ec' | 'ph';
  target: number;
  band: number;
}

const round = (value: number) => Math.round(value * 100) / 100;

/**
 * Whether a run must stop because EC or pH stayed outside target ± band for more than the grace,
 * judged on the readings' own times (oldest first, of the fertilizer phase): a streak of readings
 * outside the band, not broken by one inside, that lasts longer than the grace from its first
 * reading to its last reading or to `now` (a machine that falls silent while off band counts
 * on), whichever is later, but never past the phase's end. Answers the reason, or undefined.
 */
export function offBandReason(
  readings: ReadonlyArray<{ key: string; ts: Date; value: number }>,
  watches: readonly BandWatch[],
  now: Date,
  phaseEnd: Date,
  graceMs = OFF_BAND_GRACE_MS,
): RunReason | undefined {
  for (const watch of watches) {
    let streakStart: Date | undefined;
    let last: { ts: Date; value: number } | undefined;
    for (const reading of readings) {
      if (reading.key !== watch.key) continue;
      const outside = Math.abs(reading.value - watch.target) > watch.band + 1e-9;
      if (outside) streakStart ??= reading.ts;
      else streakStart = undefined;
      last = reading;
    }
    if (!streakStart || !last) continue;
    const until = Math.max(last.ts.getTime(), Math.min(now.getTime(), phaseEnd.getTime()));
    if (until - streakStart.getTime() > graceMs)
      return {
        key: `monitor.fertigation.${watch.key}OutOfBand`,
        params: {
          value: round(last.value),
          low: round(watch.target - watch.band),
          high: round(watch.target + watch.band),
        },
      };
  }
  return undefined;
}
