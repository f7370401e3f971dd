import {
  TELEMETRY_CALLS,
  type TelemetryAggregateItem,
  type TelemetryBucket,
  type TelemetryFn,
  type TelemetryHistoryItem,
} from '@shuili/contract';
import { http } from '../../../lib/http';
import type { Point } from './counter-increase';

/** One page of raw history: the most the telemetry call answers at once. */
const PAGE = 1000;

/**
 * Raw readings of some keys over a range, every page of them up to `maxRows` (a week of a
 * five-minute station's wind is 4,000 readings: the rose needs all of them, not the first page).
 */
export async function fetchReadings(
  deviceId: string,
  keys: readonly string[],
  startMs: number,
  endMs: number,
  signal: AbortSignal,
  maxRows = 20_000,
): Promise<TelemetryHistoryItem[]> {
  const rows: TelemetryHistoryItem[] = [];
  for (let currentPage = 1; rows.length < maxRows; currentPage++) {
    const page = await http.get<{ list: TelemetryHistoryItem[]; total: number }>(
      TELEMETRY_CALLS.history,
      {
        params: {
          deviceId,
          keys: keys.join(','),
          start: new Date(startMs).toISOString(),
          end: new Date(endMs).toISOString(),
          currentPage,
          pageSize: PAGE,
        },
        signal,
      },
    );
    rows.push(...page.list);
    if (page.list.length < PAGE || rows.length >= page.total) break;
  }
  return rows;
}

/** Aggregates per bucket, cut in the tenant's time zone (which the answer names). */
export interface Aggregates {
  timeZone: string;
  list: TelemetryAggregateItem[];
}

export function fetchAggregates(
  deviceId: string,
  keys: readonly string[],
  startMs: number,
  endMs: number,
  bucket: TelemetryBucket,
  fns: readonly TelemetryFn[],
  signal: AbortSignal,
): Promise<Aggregates> {
  return http.get<Aggregates>(TELEMETRY_CALLS.aggregate, {
    params: {
      deviceIds: deviceId,
      keys: keys.join(','),
      start: new Date(startMs).toISOString(),
      end: new Date(endMs).toISOString(),
      bucket,
      fn: fns.join(','),
    },
    signal,
  });
}

/** One key's aggregate of one function as time points, in time order. */
export function aggregatePoints(
  list: readonly TelemetryAggregateItem[],
  key: string,
  fn: TelemetryFn,
): Point[] {
  const points: Point[] = [];
  for (const item of list) {
    if (item.key !== key) continue;
    const value = item[fn];
    const ms = Date.parse(item.bucket);
    if (typeof value === 'number' && Number.isFinite(ms)) points.push([ms, value]);
  }
  return points.sort((a, b) => a[0] - b[0]);
}
