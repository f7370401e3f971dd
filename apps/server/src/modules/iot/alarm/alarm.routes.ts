import { acknowledgeAlarmSchema } from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeOf, ok } from '../../../http/envelope';
import { authOf } from '../../../http/request-context';
import type { AlarmService } from './alarm.service';

/** Acknowledging an alarm; lists of rules and records are their entities' own calls. */
export async function alarmRoutes(fastify: FastifyInstance, deps: { alarms: AlarmService }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post('/api/iot/alarm/acknowledgeAlarm', {
    config: { permission: 'granted' },
    schema: {
      tags: ['iot'],
      summary:
        'Acknowledge an alarm (id) or several at once (ids, all or none) with a comment (who and when are recorded)',
      body: acknowledgeAlarmSchema,
      response: { 200: envelopeOf(z.null()) },
    },
    handler: async (request) => {
      const { id, ids, comment } = request.body;
      await deps.alarms.acknowledge(
        authOf(request),
        [...(id ? [id] : []), ...(ids ?? [])],
        comment,
      );
      return ok(null);
    },
  });
}
