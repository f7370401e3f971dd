import {
  distributeYearResultSchema,
  distributeYearSchema,
  label,
  WATER_RIGHT_CALLS,
} from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeOf, ok } from '../../../http/envelope';
import { authOf } from '../../../http/request-context';
import type { WaterRightService } from './water-right.service';

const fieldLabels = { year: { label: label('Year', '年度', '年度') } };

/** The water rights' own call: distributing a year to every household. */
export async function waterRightRoutes(
  fastify: FastifyInstance,
  deps: { rights: WaterRightService },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.post(WATER_RIGHT_CALLS.distributeYear, {
    config: { permission: 'granted', fieldLabels },
    schema: {
      tags: ['billing'],
      summary:
        "Creates the year's water right (irrigated area × crop quota) of every enabled household lacking one",
      body: distributeYearSchema,
      response: { 200: envelopeOf(distributeYearResultSchema) },
    },
    handler: async (request) =>
      ok(await deps.rights.distributeYear(authOf(request), request.body.year)),
  });
}
