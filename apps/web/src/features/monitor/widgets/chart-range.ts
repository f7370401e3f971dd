import type { TelemetryBucket } from '@shuili/contract';
import type { Point } from './counter-increase';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** The aggregate bucket a curve over `hours` is drawn with: minutes up to two days, then hours. */
export function curveBucket(hours: number): TelemetryBucket {
  return hours <= 48 ? 'minute' : 'hour';
}

/**
 * A series with the live value appended when it is newer than its last point: the chart keeps
 * moving with the device between fetches.
 */
export function withLivePoint(
  points: readonly Point[],
  value: number | undefined,
  atMs: number | undefined,
  startMs: number,
): Point[] {
  if (value === undefined || atMs === undefined || atMs < startMs) return [...points];
  const last = points[points.length - 1];
  if (last && last[0] >= atMs) return [...points];
  return [...points, [atMs, value]];
}
