import { CONSOLE_SETTINGS_CALL, consoleSettingsSchema } from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeOf, ok } from './envelope';

/**
 * GET /api/system/queryConsoleSettings: the installation's settings the console follows (the
 * map's tile server, the desk card reader's port). Public: nothing in it is secret (both are in
 * every response's Content-Security-Policy anyway), and the console may ask before anyone signs
 * in.
 */
export async function consoleSettingsRoutes(
  app: FastifyInstance,
  deps: { mapTileUrl: string; cardReaderPort: number },
) {
  app.withTypeProvider<ZodTypeProvider>().get(CONSOLE_SETTINGS_CALL, {
    config: { permission: 'public' },
    schema: {
      tags: ['system'],
      summary:
        "The installation's settings the console follows (the map's tile server, the card reader's port)",
      response: { 200: envelopeOf(consoleSettingsSchema) },
    },
    handler: async () => ok({ mapTileUrl: deps.mapTileUrl, cardReaderPort: deps.cardReaderPort }),
  });
}
