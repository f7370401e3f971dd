import { fertigationProgramEntity, ratingCurveEntity, type EntityDef } from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/database';
import type { EntityHooks } from '../../entity/entity-hooks';
import { fertigationProgramHooks } from './fertigation/fertigation-program.hooks';
import { fertigationGuard, fertigationStopHook } from './fertigation/fertigation-guards';
import { FertigationRunner } from './fertigation/fertigation-runner';
import { fertigationRoutes } from './fertigation/fertigation.routes';
import { FertigationService } from './fertigation/fertigation.service';
import { FertilizerUseService } from './fertigation/fertilizer-use.service';
import { ratingCurveHooks } from './bayonet/rating-curve.hooks';
import { registerFloodAndSilt } from './flood/flood.module';
import { dryRunGuard } from './pump/dry-run-guard';
import { registerRunoffDetection } from './runoff/runoff-detection';
import { areaSettingRoutes } from './settings/area-setting.routes';
import { AreaSettingService } from './settings/area-setting.service';
import { DailyEt0Service } from './weather/daily-et0.service';
import { weatherRoutes } from './weather/weather.routes';

/** The areas' rules' own entity hooks (a fertigation program's timed start), for app.ts. */
export const MONITOR_RULE_HOOKS: ReadonlyMap<EntityDef, EntityHooks> = new Map([
  [fertigationProgramEntity, fertigationProgramHooks],
  [ratingCurveEntity, ratingCurveHooks],
]);

/**
 * The areas' rules (DESIGN §3: an area's own code beside its declaration): per-device area
 * settings, the pump dry-run interlock and the fertigation machine's guard (command guards of
 * app.commands), fertigation programs run on the scheduler core (app.scheduler), and the
 * weather stations' daily ET0. Needs registerIot and registerScheduler to have run.
 */
export async function registerMonitorRules(
  app: FastifyInstance,
  deps: { db: Database },
): Promise<void> {
  const { db } = deps;
  const commands = app.commands;
  await app.register(areaSettingRoutes, { settings: new AreaSettingService(db) });
  commands.guards.register('pump_station', dryRunGuard);
  commands.guards.register('water_fertilizer', fertigationGuard);
  commands.guards.onRecorded('water_fertilizer', fertigationStopHook);
  new FertigationRunner({ db, commands, scheduler: app.scheduler, log: app.log }).register();
  const fertigation = new FertigationService({ db, commands, scheduler: app.scheduler });
  fertigation.register();
  await app.register(fertigationRoutes, {
    fertigation,
    fertilizerUse: new FertilizerUseService(db),
  });
  await app.register(weatherRoutes, { et0: new DailyEt0Service(db) });
  // Flood rain sums and thresholds; rainstorm, water level and silt warnings.
  await registerFloodAndSilt(app, { db });
  // Runoff plots' events, cut from their stored flow on the scheduler core.
  registerRunoffDetection(app, deps);
}
