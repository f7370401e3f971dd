import type { FastifyInstance } from 'fastify';
import type { Database } from '../../../db/database';
import { commandRoutes } from './command.routes';
import { CommandService } from './command.service';
import type { ControlTransport } from './control-transport';

/**
 * Builds the command service and registers its routes; answers the service, which is also an
 * ingest listener (acknowledgements, reconnects). The sweeper runs while the app is up.
 */
export async function commandModule(
  app: FastifyInstance,
  deps: { db: Database; transport: ControlTransport; sweepMs?: number },
): Promise<CommandService> {
  const commands = new CommandService({ ...deps, log: app.log });
  await app.register(commandRoutes, { commands });
  app.addHook('onReady', async () => commands.start());
  app.addHook('onClose', async () => commands.stop());
  return commands;
}
