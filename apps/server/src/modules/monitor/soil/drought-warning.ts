import type { FastifyInstance } from 'fastify';
import type { Database, Sql } from '../../../db/database';
import type { AlarmService } from '../../iot/alarm/alarm.service';
import { ensurePlatformCheck } from '../../scheduler/platform-check';
import type { Processor } from '../../scheduler/scheduler.service';
import { areaSettingsOf } from '../settings/area-setting.service';
import {
  judgeStationWarnings,
  type StationJudgement,
  type StationWarning,
} from '../station-warnings/station-warning';

/** The scheduler kind and key of the drought check (one trigger, of the platform tenant). */
export const DROUGHT_CHECK = 'soilMoisture.droughtCheck';
const DROUGHT_CHECK_KEY = 'soil-moisture:drought-check';
const EVERY_SECONDS = 600;

/** The reading judged: moisture at 20 cm. */
export const DROUGHT_KEY = 'soilMoisture20';
/** The tenant's rule the drought alarms are recorded under (created when first needed). */
export const DROUGHT_RULE_NAME = 'Drought warning (20 cm)';

interface StationDryness {
  device_id: string;
  latest: number | null;
  latest_at: Date | null;
  /** The first reading of the dry spell going on now (after the last one at or above). */
  dry_since: Date | null;
}

/** Each soil station's latest 20 cm moisture and since when it has stayed below `threshold`. */
async function dryness(sql: Sql, deviceId: string, threshold: number): Promise<StationDryness> {
  const { rows } = await sql.query<StationDryness>(
    `WITH wet AS (
       SELECT max(ts) AS at FROM iot_telemetry
        WHERE device_id = $1 AND key = $2 AND value >= $3 AND ts > now() - interval '31 days')
     SELECT $1::text AS device_id, l.value AS latest, l.ts AS latest_at,
            (SELECT min(t.ts) FROM iot_telemetry t, wet
              WHERE t.device_id = $1 AND t.key = $2 AND t.ts > now() - interval '31 days'
                AND (wet.at IS NULL OR t.ts > wet.at)) AS dry_since
       FROM (SELECT 1) one
       LEFT JOIN iot_telemetry_latest l ON l.device_id = $1 AND l.key = $2`,
    [deviceId, DROUGHT_KEY, threshold],
  );
  return rows[0]!;
}

/**
 * The drought warning: a soil station whose 20 cm moisture has stayed below its droughtThreshold
 * for droughtHours (its soil-moisture settings) is in drought (orange); one back at or above the
 * threshold clears it; one dry for less time keeps what it has.
 */
export const droughtWarning: StationWarning = {
  code: 'soilDrought',
  kinds: ['soil_moisture'],
  rules: { orange: DROUGHT_RULE_NAME },
  propertyKey: DROUGHT_KEY,
  kind: 'below',
  async judge(sql, stationIds) {
    const settings = await areaSettingsOf(sql, 'soilMoisture', stationIds);
    const out = new Map<string, StationJudgement | null>();
    for (const id of stationIds) {
      const threshold = Number(settings.get(id)!.droughtThreshold);
      const hours = Number(settings.get(id)!.droughtHours);
      const state = await dryness(sql, id, threshold);
      if (state.latest === null || !state.latest_at) continue;
      const dryFor = state.dry_since ? Date.now() - state.dry_since.getTime() : 0;
      if (state.latest >= threshold) out.set(id, null);
      else if (dryFor >= hours * 3600_000)
        out.set(id, {
          level: 'orange',
          propertyKey: DROUGHT_KEY,
          value: state.latest,
          threshold,
          at: state.latest_at,
        });
    }
    return out;
  },
};

/**
 * The drought check (every 10 minutes, one node): the drought warning judged by the station
 * warnings' runner (station-warnings/), which raises and clears its alarms.
 */
export function droughtCheckProcessor(deps: { db: Database; alarms: AlarmService }): Processor {
  return async () => {
    const result = await judgeStationWarnings(deps, [droughtWarning]);
    return { result: { decision: 'checked', ...result } };
  };
}

/** Registers the drought check and makes sure its trigger exists (every node, at start). */
export function registerDroughtWarning(app: FastifyInstance, deps: { db: Database }): void {
  app.scheduler.registerProcessor(
    DROUGHT_CHECK,
    droughtCheckProcessor({ db: deps.db, alarms: app.alarms }),
  );
  ensurePlatformCheck(app, deps.db, {
    kind: DROUGHT_CHECK,
    key: DROUGHT_CHECK_KEY,
    everySeconds: EVERY_SECONDS,
    maxAttempts: 2,
  });
}

export { DROUGHT_CHECK_KEY };
