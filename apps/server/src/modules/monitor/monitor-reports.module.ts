import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/database';
import { areaRegionRoutes } from './region/area-region.routes';
import { AreaRegionService } from './region/area-region.service';
import { areaReportRoutes } from './report/area-report.routes';
import { AreaReportService } from './report/area-report.service';
import { areaThresholdRoutes } from './threshold/area-threshold.routes';
import { AreaThresholdService } from './threshold/area-threshold.service';

/**
 * The area screens' reading and configuration calls: data report, thresholds and regional
 * management. Needs app.telemetry (registerIot first): the report reads through its queries.
 */
export async function registerMonitorReports(
  app: FastifyInstance,
  deps: { db: Database },
): Promise<void> {
  const reports = new AreaReportService(deps.db, app.telemetry.queries);
  await app.register(areaReportRoutes, { reports });
  await app.register(areaThresholdRoutes, { thresholds: new AreaThresholdService(deps.db) });
  await app.register(areaRegionRoutes, { regions: new AreaRegionService(deps.db) });
}
