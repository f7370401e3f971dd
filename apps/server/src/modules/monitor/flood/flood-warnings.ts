import { FLOOD_LEVELS, floodMonitorArea, rainSumKey } from '@shuili/contract';
import { levelCrossing } from '../station-warnings/level-crossing';
import type { StationJudgement, StationWarning } from '../station-warnings/station-warning';
import { floodStatusAt } from './flood-status';

/** The rules of the rainstorm levels, by level (tenant data: the alarm lists show the names). */
export const RAINSTORM_RULES = Object.fromEntries(
  FLOOD_LEVELS.map((level) => [level, `Rainstorm warning (${level})`]),
) as Record<(typeof FLOOD_LEVELS)[number], string>;

/**
 * The rainstorm warning: each station's rolling rain against its thresholds (its own, the
 * tenant's default, else the national signals); the highest level reached is raised, named by
 * the window furthest past its threshold (`rainfall3h`), and clears when no window reaches it.
 */
export const rainstormWarning: StationWarning = {
  code: 'floodRain',
  kinds: floodMonitorArea.kinds,
  rules: RAINSTORM_RULES,
  propertyKey: 'rainfall',
  kind: 'above',
  async judge(sql, stationIds, now) {
    const out = new Map<string, StationJudgement | null>();
    for (const status of await floodStatusAt(sql, stationIds, now)) {
      const warning = status.warning;
      out.set(
        status.deviceId,
        warning
          ? {
              level: warning.level,
              propertyKey: rainSumKey(warning.window as Parameters<typeof rainSumKey>[0]),
              value: warning.value,
              threshold: warning.threshold,
              at: now,
            }
          : null,
      );
    }
    return out;
  },
};

/** The water level against the station's warning (orange) and guarantee (red) levels. */
export const waterLevelWarning = levelCrossing({
  code: 'floodWaterLevel',
  areaCode: floodMonitorArea.code,
  propertyKey: 'waterLevel',
  direction: 'above',
  lines: [
    { level: 'orange', setting: 'warningLevel', rule: 'Water level above warning level' },
    { level: 'red', setting: 'guaranteeLevel', rule: 'Water level above guarantee level' },
  ],
});
