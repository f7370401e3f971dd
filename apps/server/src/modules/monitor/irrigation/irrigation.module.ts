import type { FastifyInstance } from 'fastify';
import type { Database } from '../../../db/database';
import { registerDroughtWarning } from '../soil/drought-warning';
import { irrigationRoutes } from './irrigation.routes';
import { IrrigationService } from './irrigation.service';
import { registerIrrigationGuards } from './irrigation-guards';
import { ROTATION_START, ROTATION_STEP, SOIL_RULE, VALVE_CLOSE } from './irrigation-keys';
import { rotationStartProcessor, rotationStepProcessor } from './rotation.processor';
import { soilRuleProcessor } from './soil-rule.processor';
import { valveCloseProcessor } from './valve-close.processor';

/**
 * The irrigation area on the server: the valve and gate command guards (conflicting controls
 * refused, a timed open's close scheduled), the scheduler processors (timed closes, rotation
 * schedules, soil-moisture rules) and its calls. Needs app.commands and app.scheduler.
 */
export async function registerIrrigation(
  app: FastifyInstance,
  deps: { db: Database },
): Promise<void> {
  const { commands, scheduler } = app;
  registerIrrigationGuards(commands.guards);
  const processorDeps = { db: deps.db, commands };
  scheduler.registerProcessor(VALVE_CLOSE, valveCloseProcessor(processorDeps));
  scheduler.registerProcessor(ROTATION_START, rotationStartProcessor(processorDeps));
  scheduler.registerProcessor(ROTATION_STEP, rotationStepProcessor(processorDeps));
  scheduler.registerProcessor(SOIL_RULE, soilRuleProcessor(processorDeps));
  // The soil stations' drought warning (an alarm judged over hours), on the same core.
  registerDroughtWarning(app, deps);
  await app.register(irrigationRoutes, { irrigation: new IrrigationService(deps.db, commands) });
}
