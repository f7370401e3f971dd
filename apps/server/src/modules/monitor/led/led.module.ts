import { ledProgramEntity, type EntityDef } from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../../db/database';
import type { EntityHooks } from '../../../entity/entity-hooks';
import { LedLiveValues } from './led-live-values';
import { ledProgramHooks } from './led-program.hooks';
import { LedProgramService } from './led-program.service';
import { ledRoutes } from './led.routes';

/** The LED program entity's own rules, for the generic entity routes (app.ts). */
export const LED_ENTITY_HOOKS: ReadonlyMap<EntityDef, EntityHooks> = new Map([
  [ledProgramEntity, ledProgramHooks],
]);

/**
 * LED screens (issue 19 item 8): programs' pages, sending them to screens through the command
 * engine, and the live values of the programs showing, pushed as readings are stored. Needs
 * registerIot to have run (app.commands, app.telemetry).
 */
export async function registerLed(app: FastifyInstance, deps: { db: Database }): Promise<void> {
  const live = new LedLiveValues({ db: deps.db, commands: app.commands, log: app.log });
  app.telemetry.ingest.addListener(live);
  app.addHook('onClose', async () => live.stop());
  await app.register(ledRoutes, {
    programs: new LedProgramService(deps.db, app.commands),
    live,
  });
}
