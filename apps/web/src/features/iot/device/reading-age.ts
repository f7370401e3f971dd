import type { TFunction } from 'i18next';
import { formatRelative } from '../../../lib/format';

/**
 * A reading is stale once the device has missed a report: older than its product's reporting
 * interval by more than half of it (devices jitter their period, so one a little late is not
 * greyed and ungreyed every cycle).
 */
export const STALE_FACTOR = 1.5;

export function isStale(ts: number, now: number, reportIntervalMs: number): boolean {
  return now - ts > reportIntervalMs * STALE_FACTOR;
}

/** The true age of a reading: seconds under a minute ("12 s ago"), then the usual relative time. */
export function formatAge(ts: number, now: number, t: TFunction): string {
  const seconds = Math.max(0, Math.floor((now - ts) / 1000));
  if (seconds < 60) return t('iot.device.secondsAgo', { count: seconds });
  return formatRelative(ts, { now, t });
}
