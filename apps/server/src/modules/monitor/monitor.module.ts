import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/database';
import type { FieldGrants } from '../../entity/field-grants';
import { areaDeviceRoutes } from './area-device.routes';
import { AreaDeviceService } from './area-device.service';
import { registerMonitorReports } from './monitor-reports.module';
import { registerMonitorRules } from './monitor-rules.module';
import { registerIrrigation } from './irrigation/irrigation.module';
import { registerLed } from './led/led.module';
import { insectRoutes } from './insect/insect.routes';
import { workbenchRoutes } from './workbench/workbench.routes';
import { WorkbenchService } from './workbench/workbench.service';

/**
 * The monitoring areas' calls (/api/monitor/...): every area's standard screens read the IoT
 * engine's devices, telemetry, commands and alarms through the area declarations (contract
 * areas/). app.ts calls it once.
 */
export async function registerMonitor(
  app: FastifyInstance,
  deps: { db: Database; grants: FieldGrants },
): Promise<void> {
  await app.register(areaDeviceRoutes, { devices: new AreaDeviceService(deps.db, deps.grants) });
  await app.register(workbenchRoutes, { workbench: new WorkbenchService(deps.db, deps.grants) });
  // Data report, thresholds, regional management.
  await registerMonitorReports(app, { db: deps.db });
  // Area settings, the pump interlock, fertigation programs, ET0.
  await registerMonitorRules(app, { db: deps.db });
  // Valve and gate guards, timed closes, rotation schedules, soil rules, water delivered.
  await registerIrrigation(app, { db: deps.db });
  // LED screens: programs, sending them, their live values.
  await registerLed(app, { db: deps.db });
  // Insect traps' galleries and the species catalogue's pictures.
  await app.register(insectRoutes, { db: deps.db, storage: app.fileStorage });
}
