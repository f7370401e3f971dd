import { WORKBENCH_CALLS, workbenchOverviewSchema } from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeOf, ok } from '../../../http/envelope';
import { authOf } from '../../../http/request-context';
import type { WorkbenchService } from './workbench.service';

/** GET /api/monitor/workbench/queryOverview: the operations overview of the workbench. */
export async function workbenchRoutes(
  fastify: FastifyInstance,
  deps: { workbench: WorkbenchService },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(WORKBENCH_CALLS.overview, {
    config: { permission: 'granted' },
    schema: {
      tags: ['monitor'],
      summary:
        'Operations overview: devices by area and state, alarms by level, water delivered today and this month, the map, recent alarms and commands',
      response: { 200: envelopeOf(workbenchOverviewSchema) },
    },
    // The schema documents the answer; checking the map's columns value by value (10,000 located
    // devices are 70,000 values) would cost more than building them: the service writes it to the
    // schema's type, and the tests read it back through the schema.
    serializerCompiler: () => (data) => JSON.stringify(data),
    handler: async (request) => ok(await deps.workbench.overview(authOf(request))),
  });
}
