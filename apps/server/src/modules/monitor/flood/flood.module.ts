import type { FastifyInstance } from 'fastify';
import type { Database } from '../../../db/database';
import { siltWarning } from '../silt/silt-warning';
import { registerStationWarnings } from '../station-warnings/station-warning';
import { rainstormWarning, waterLevelWarning } from './flood-warnings';
import { floodRoutes } from './flood.routes';
import { FloodService } from './flood.service';

/**
 * The hydrology stations' rules (issue 19): the flood calls, and the station warnings judged
 * every minute on the scheduler core (rainstorm levels, water level, silt past the dredging
 * depth).
 */
export async function registerFloodAndSilt(
  app: FastifyInstance,
  deps: { db: Database },
): Promise<void> {
  await app.register(floodRoutes, { flood: new FloodService(deps.db) });
  registerStationWarnings(app, deps, [rainstormWarning, waterLevelWarning, siltWarning]);
}
