import { TRACE_MAP_CALLS, traceMapSchema } from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database } from '../../../db/database';
import type { FieldGrants } from '../../../entity/field-grants';
import { envelopeOf, ok } from '../../../http/envelope';
import { authOf } from '../../../http/request-context';
import { readTraceMap } from './trace-map';

/** GET the digital map of /traceabilitySystem/digitalMap (docs/traceability.md "Digital map"). */
export async function traceMapRoutes(
  fastify: FastifyInstance,
  deps: { db: Database; grants: FieldGrants },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(TRACE_MAP_CALLS.query, {
    config: { permission: 'granted', reads: true },
    schema: {
      tags: ['trace'],
      summary: "The tenant's bases, plots with outlines and plantings, and the plots' devices",
      response: { 200: envelopeOf(traceMapSchema) },
    },
    handler: async (request) => ok(await readTraceMap(deps.db, deps.grants, authOf(request))),
  });
}
