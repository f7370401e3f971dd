import type { FastifyInstance } from 'fastify';
import type { Database } from '../../../db/database';
import type { ControlTransport } from '../command/control-transport';
import { alarmRoutes } from './alarm.routes';
import { AlarmService } from './alarm.service';

/**
 * Builds the alarm service and registers its route; answers the service, an ingest listener
 * (onTelemetry). The rule entity's hooks are `alarmRuleHooks` (alarm-rule.hooks.ts), mounted
 * with the generic entity routes.
 */
export async function alarmModule(
  app: FastifyInstance,
  deps: {
    db: Database;
    transport: Pick<ControlTransport, 'publishLive'>;
    noDataCheckMs?: number;
  },
): Promise<AlarmService> {
  const alarms = new AlarmService({ ...deps, log: app.log });
  await app.register(alarmRoutes, { alarms });
  app.addHook('onReady', async () => alarms.start());
  app.addHook('onClose', async () => alarms.stop());
  return alarms;
}
