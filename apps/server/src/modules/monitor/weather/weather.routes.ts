import { WEATHER_CALLS, dailyEt0QuerySchema, dailyEt0Schema, label } from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeOf, ok } from '../../../http/envelope';
import { authOf } from '../../../http/request-context';
import type { DailyEt0Service } from './daily-et0.service';

const fieldLabels = {
  deviceId: { label: label('Station', '气象站', '氣象站') },
  start: { label: label('First day', '开始日期', '開始日期') },
  end: { label: label('Last day', '结束日期', '結束日期') },
};

/** The weather area's derived quantities. */
export async function weatherRoutes(fastify: FastifyInstance, deps: { et0: DailyEt0Service }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(WEATHER_CALLS.dailyEt0, {
    config: { permission: 'granted' as const, fieldLabels },
    schema: {
      tags: ['monitor'],
      summary: "A weather station's daily reference evapotranspiration (FAO-56) and rainfall",
      querystring: dailyEt0QuerySchema,
      response: { 200: envelopeOf(dailyEt0Schema) },
    },
    handler: async (request) => ok(await deps.et0.query(authOf(request), request.query)),
  });
}
