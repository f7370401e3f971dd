import { ALARM_LEVELS, areaOf, type AlarmLevel } from '@shuili/contract';
import type { Sql } from '../../../db/database';
import { areaSettingsOf } from '../settings/area-setting.service';
import type { StationJudgement, StationWarning } from './station-warning';

/** One line of a level crossing: the setting holding it and the level crossing it raises. */
export interface CrossingLine {
  level: AlarmLevel;
  /** The area setting holding the station's line (`dredgingDepth`, `warningLevel`). */
  setting: string;
  /** The level's alarm rule, by name. */
  rule: string;
}

/**
 * The warning "a measured value crosses a per-station line": the station's latest reading of
 * `propertyKey` past the line of each level (above: greater than it; below: less), lines read
 * from the area's settings. The highest level crossed is the station's; none crossed clears.
 * Serves the silt depth against the dredging depth and the flood water level against the
 * warning and guarantee levels.
 */
export function levelCrossing(def: {
  code: string;
  areaCode: string;
  propertyKey: string;
  direction: 'above' | 'below';
  lines: readonly CrossingLine[];
}): StationWarning {
  const area = areaOf(def.areaCode);
  if (!area) throw new Error(`levelCrossing ${def.code}: no area ${def.areaCode}`);
  const highestFirst = [...def.lines].sort(
    (a, b) => ALARM_LEVELS.indexOf(b.level) - ALARM_LEVELS.indexOf(a.level),
  );
  return {
    code: def.code,
    kinds: area.kinds,
    rules: Object.fromEntries(def.lines.map((line) => [line.level, line.rule])),
    propertyKey: def.propertyKey,
    kind: def.direction,
    async judge(sql: Sql, stationIds: string[]) {
      const settings = await areaSettingsOf(sql, def.areaCode, stationIds);
      const { rows } = await sql.query<{ device_id: string; value: number; ts: Date }>(
        `SELECT device_id::text, value, ts FROM iot_telemetry_latest
          WHERE device_id = ANY($1::bigint[]) AND key = $2 AND value IS NOT NULL`,
        [stationIds, def.propertyKey],
      );
      const out = new Map<string, StationJudgement | null>();
      for (const row of rows) {
        const crossed = highestFirst.find((line) => {
          const threshold = Number(settings.get(row.device_id)?.[line.setting]);
          return def.direction === 'above' ? row.value > threshold : row.value < threshold;
        });
        out.set(
          row.device_id,
          crossed
            ? {
                level: crossed.level,
                propertyKey: def.propertyKey,
                value: row.value,
                threshold: Number(settings.get(row.device_id)![crossed.setting]),
                at: row.ts,
              }
            : null,
        );
      }
      return out;
    },
  };
}
