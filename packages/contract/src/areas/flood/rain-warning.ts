import { ALARM_LEVELS, type AlarmLevel } from '../../entities/iot/alarm-levels';
import { label } from '../../entity-kit/label';
import type { ThingProperty } from '../../iot/thing-model';

/** The rolling windows rainfall is summed over, in hours (RESEARCH.md "Flood"). */
export const RAIN_WINDOWS = [1, 3, 6, 12, 24] as const;
export type RainWindow = (typeof RAIN_WINDOWS)[number];
/** A window as a JSON key and a field name (`thresholds.red.h3`). */
export type RainWindowKey = `h${RainWindow}`;
export const rainWindowKey = (hours: RainWindow): RainWindowKey => `h${hours}`;

/**
 * The property key of a rolling sum (`rainfall3h`): the flood product declares these, so lists,
 * cards and alarm notices name them, and the server answers them computed from the station's
 * readings (never what a device says its sums are).
 */
export const rainSumKey = (hours: RainWindow): string => `rainfall${hours}h`;

/** How a rolling sum reads (the flood product declares these; the report derives them). */
export function rainSumProperty(hours: RainWindow): ThingProperty {
  return {
    key: rainSumKey(hours),
    name: label(`Rainfall ${hours} h`, `${hours}小时雨量`, `${hours}小時雨量`),
    type: 'number',
    unit: 'mm',
    min: 0,
    max: 2000,
    precision: 1,
    factor: 'rainfall',
    access: 'r',
  } as ThingProperty;
}

/**
 * Property keys the server computes and devices never report (the rolling rain sums): the
 * simulator leaves them out of its readings, and the lists answer the server's values.
 */
export const SERVER_COMPUTED_KEYS: readonly string[] = RAIN_WINDOWS.map(rainSumKey);

/** The four flood warning levels, lowest first (the alarm levels). */
export const FLOOD_LEVELS: readonly AlarmLevel[] = ALARM_LEVELS;

/** mm per window of one level; null: the level does not look at that window. */
export type RainLevelThresholds = Record<RainWindowKey, number | null>;
/** A station's (or the tenant's default) thresholds: each level × window in mm. */
export type RainThresholds = Record<AlarmLevel, RainLevelThresholds>;

const level = (mm: Partial<Record<RainWindow, number>>): RainLevelThresholds =>
  Object.fromEntries(
    RAIN_WINDOWS.map((hours) => [rainWindowKey(hours), mm[hours] ?? null]),
  ) as RainLevelThresholds;

/**
 * The national rainstorm signals (暴雨预警信号): blue ≥ 50 mm in 12 h, yellow ≥ 50 mm in 6 h,
 * orange ≥ 50 mm in 3 h, red ≥ 100 mm in 3 h. What a tenant starts with.
 */
export const NATIONAL_RAIN_SIGNALS: RainThresholds = {
  blue: level({ 12: 50 }),
  yellow: level({ 6: 50 }),
  orange: level({ 3: 50 }),
  red: level({ 3: 100 }),
};

/**
 * A county's mountain-torrent thresholds (RESEARCH.md: mm for 1/3/6/24 h), a starting point for
 * stations in small steep catchments, offered by the configuration screen.
 */
export const MOUNTAIN_TORRENT_EXAMPLE: RainThresholds = {
  blue: level({ 1: 35, 3: 55, 6: 70, 24: 100 }),
  yellow: level({ 1: 45, 3: 75, 6: 95, 24: 130 }),
  orange: level({ 1: 60, 3: 100, 6: 120, 24: 160 }),
  red: level({ 1: 80, 3: 120, 6: 150, 24: 200 }),
};

/** Rolling sums by window, mm. */
export type RainSums = Record<RainWindowKey, number>;

/** What the sums mean: the highest level reached, and the window that reached it furthest. */
export interface RainWarning {
  level: AlarmLevel;
  window: RainWindow;
  value: number;
  threshold: number;
}

/**
 * The highest level any window has reached (a sum at or above its threshold: the signals say
 * "50 mm or more"), or undefined. Of that level's windows reached, the one furthest past its
 * threshold names the warning.
 */
export function rainWarningOf(sums: RainSums, thresholds: RainThresholds): RainWarning | undefined {
  for (const alarmLevel of [...FLOOD_LEVELS].reverse()) {
    let best: RainWarning | undefined;
    for (const hours of RAIN_WINDOWS) {
      const threshold = thresholds[alarmLevel][rainWindowKey(hours)];
      const value = sums[rainWindowKey(hours)];
      if (threshold === null || value < threshold) continue;
      if (!best || value / threshold > best.value / best.threshold)
        best = { level: alarmLevel, window: hours, value, threshold };
    }
    if (best) return best;
  }
  return undefined;
}

/** Whether thresholds have the level × window shape (stored JSON read back). */
export function isRainThresholds(value: unknown): value is RainThresholds {
  if (!value || typeof value !== 'object') return false;
  return FLOOD_LEVELS.every((alarmLevel) => {
    const row = (value as Record<string, unknown>)[alarmLevel];
    return (
      !!row &&
      typeof row === 'object' &&
      RAIN_WINDOWS.every((hours) => {
        const mm = (row as Record<string, unknown>)[rainWindowKey(hours)];
        return mm === null || (typeof mm === 'number' && Number.isFinite(mm));
      })
    );
  });
}

/** Why thresholds cannot be stored, before translation (field `thresholds.<level>.h<n>`). */
export interface RainThresholdProblem {
  field: string;
  key: string;
  params: Record<string, string | number>;
}

/** Smallest and largest threshold, mm. */
export const RAIN_THRESHOLD_RANGE = { min: 0.1, max: 2000 } as const;

/**
 * The problems of thresholds: each from 0.1 to 2000 mm with one decimal; every level looks at
 * one window at least; in each window a higher level asks for more rain than every lower one
 * (a red below an orange would never be the highest level reached).
 */
export function rainThresholdProblems(thresholds: RainThresholds): RainThresholdProblem[] {
  const problems: RainThresholdProblem[] = [];
  for (const alarmLevel of FLOOD_LEVELS) {
    const row = thresholds[alarmLevel];
    if (RAIN_WINDOWS.every((hours) => row[rainWindowKey(hours)] === null))
      problems.push({
        field: `thresholds.${alarmLevel}`,
        key: 'monitor.floodLevelEmpty',
        params: { level: alarmLevel },
      });
    for (const hours of RAIN_WINDOWS) {
      const mm = row[rainWindowKey(hours)];
      const field = `thresholds.${alarmLevel}.${rainWindowKey(hours)}`;
      if (mm === null) continue;
      if (
        mm < RAIN_THRESHOLD_RANGE.min ||
        mm > RAIN_THRESHOLD_RANGE.max ||
        Math.round(mm * 10) / 10 !== mm
      ) {
        problems.push({
          field,
          key: 'monitor.floodThresholdRange',
          params: { min: RAIN_THRESHOLD_RANGE.min, max: RAIN_THRESHOLD_RANGE.max, hours },
        });
        continue;
      }
      const below = FLOOD_LEVELS.slice(0, FLOOD_LEVELS.indexOf(alarmLevel))
        .map((lower) => ({ lower, mm: thresholds[lower][rainWindowKey(hours)] }))
        .filter((one): one is { lower: AlarmLevel; mm: number } => one.mm !== null)
        .find((one) => one.mm >= mm);
      if (below)
        problems.push({
          field,
          key: 'monitor.floodThresholdOrder',
          params: { hours, lower: below.lower, lowerMm: below.mm },
        });
    }
  }
  return problems;
}
