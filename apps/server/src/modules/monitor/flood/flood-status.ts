import {
  NATIONAL_RAIN_SIGNALS,
  rainWarningOf,
  type FloodStationStatus,
  type RainThresholds,
} from '@shuili/contract';
import type { Sql } from '../../../db/database';
import { areaSettingsOf } from '../settings/area-setting.service';
import { floodThresholdRepo, type FloodThresholdRow } from './flood-threshold.repo';
import { rainSumsAt, type RainSource, type RainStation } from './rolling-rain';

/** The thresholds a station goes by: its own, else the tenant's default, else the signals. */
export function thresholdsOf(
  rows: readonly FloodThresholdRow[],
  stationId: string | null,
): { thresholds: RainThresholds; own: boolean; inherited: RainThresholds } {
  const fallback =
    stationId === null
      ? NATIONAL_RAIN_SIGNALS
      : (rows.find((row) => row.stationId === null)?.thresholds ?? NATIONAL_RAIN_SIGNALS);
  const own = rows.find((row) => row.stationId === stationId);
  return { thresholds: own?.thresholds ?? fallback, own: !!own, inherited: fallback };
}

/** Stations with where their rain comes from (the flood area's `rainSource` setting). */
export async function rainStations(
  sql: Sql,
  stationIds: readonly string[],
): Promise<RainStation[]> {
  const settings = await areaSettingsOf(sql, 'floodMonitor', stationIds);
  return stationIds.map((id) => ({ id, source: settings.get(id)!.rainSource as RainSource }));
}

/**
 * Flood stations now (tenant context; the ids are stations the caller sees): rolling rain per
 * window, the highest rainstorm level reached under the station's thresholds, and the latest
 * water level against its warning and guarantee levels.
 */
export async function floodStatusAt(
  sql: Sql,
  stationIds: readonly string[],
  at: Date,
): Promise<FloodStationStatus[]> {
  if (stationIds.length === 0) return [];
  const settings = await areaSettingsOf(sql, 'floodMonitor', stationIds);
  const sourceOf = (id: string) => settings.get(id)!.rainSource as RainSource;
  const sums = await rainSumsAt(
    sql,
    stationIds.map((id) => ({ id, source: sourceOf(id) })),
    at,
  );
  const rows = await floodThresholdRepo.rows(sql, stationIds);
  const { rows: levels } = await sql.query<{ device_id: string; value: number; ts: Date }>(
    `SELECT device_id::text, value, ts FROM iot_telemetry_latest
      WHERE device_id = ANY($1::bigint[]) AND key = 'waterLevel' AND value IS NOT NULL`,
    [stationIds],
  );
  return stationIds.map((id) => {
    const { thresholds, own } = thresholdsOf(rows, id);
    const stationSums = sums.get(id)!;
    const warningLevel = Number(settings.get(id)!.warningLevel);
    const guaranteeLevel = Number(settings.get(id)!.guaranteeLevel);
    const level = levels.find((row) => row.device_id === id);
    const warning = rainWarningOf(stationSums, thresholds);
    return {
      deviceId: id,
      source: sourceOf(id),
      sums: stationSums,
      at: at.toISOString(),
      thresholds,
      ownThresholds: own,
      warning: warning ?? null,
      waterLevel: level?.value ?? null,
      waterLevelAt: level?.ts.toISOString() ?? null,
      warningLevel,
      guaranteeLevel,
      levelState: !level
        ? 'unknown'
        : level.value > guaranteeLevel
          ? 'guarantee'
          : level.value > warningLevel
            ? 'warning'
            : 'normal',
    };
  });
}
