import {
  FLOOD_CALLS,
  floodStationStatusSchema,
  floodStatusQuerySchema,
  floodThresholdQuerySchema,
  floodThresholdSchema,
  label,
  updateFloodThresholdSchema,
} from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeOf, ok } from '../../../http/envelope';
import { authOf } from '../../../http/request-context';
import type { FloodService } from './flood.service';

const fieldLabels = {
  deviceIds: { label: label('Stations', '站点', '站點') },
  deviceId: { label: label('Station', '站点', '站點') },
  thresholds: { label: label('Thresholds', '阈值', '閾值') },
};

/** The flood area's calls: stations' rolling rain and levels now, and the rain thresholds. */
export async function floodRoutes(fastify: FastifyInstance, deps: { flood: FloodService }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['monitor'];
  const config = { permission: 'granted' as const, fieldLabels };

  app.get(FLOOD_CALLS.status, {
    config,
    schema: {
      tags,
      summary:
        "Flood stations now: rain over 1, 3, 6, 12 and 24 h, the rainstorm level reached, the water level against the station's lines",
      querystring: floodStatusQuerySchema,
      response: { 200: envelopeOf(z.array(floodStationStatusSchema)) },
    },
    handler: async (request) =>
      ok(await deps.flood.status(authOf(request), request.query.deviceIds.split(','))),
  });

  app.get(FLOOD_CALLS.thresholds, {
    config,
    schema: {
      tags,
      summary: "A station's rainstorm thresholds (level × window, mm), or the tenant's default",
      querystring: floodThresholdQuerySchema,
      response: { 200: envelopeOf(floodThresholdSchema) },
    },
    handler: async (request) =>
      ok(await deps.flood.threshold(authOf(request), request.lang, request.query)),
  });

  app.post(FLOOD_CALLS.updateThresholds, {
    config,
    schema: {
      tags,
      summary:
        "Set (or remove with null) a station's rainstorm thresholds, or the tenant's default",
      body: updateFloodThresholdSchema,
      response: { 200: envelopeOf(floodThresholdSchema) },
    },
    handler: async (request) =>
      ok(await deps.flood.update(authOf(request), request.lang, request.body)),
  });
}
