import {
  areaRegionQuerySchema,
  areaRegionSchema,
  label,
  MONITOR_REGION_CALLS,
  type Lang,
} from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeOf, ok } from '../../../http/envelope';
import { authOf } from '../../../http/request-context';
import type { AreaRegionService } from './area-region.service';

const fieldLabels: Record<string, { label: Record<Lang, string> }> = {
  area: { label: label('Area', '业务', '業務') },
};

/** Regional management: the zones an area's devices serve, in one call. */
export async function areaRegionRoutes(
  fastify: FastifyInstance,
  deps: { regions: AreaRegionService },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(MONITOR_REGION_CALLS.query, {
    config: { permission: 'granted', fieldLabels },
    schema: {
      tags: ['monitor region'],
      summary: "The zones the area's devices serve and the devices (state, zone) the caller sees",
      querystring: areaRegionQuerySchema,
      response: { 200: envelopeOf(areaRegionSchema) },
    },
    handler: async (request) => ok(await deps.regions.region(authOf(request), request.query.area)),
  });
}
