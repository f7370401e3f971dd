import {
  areaThresholdQuerySchema,
  areaThresholdSchema,
  factorThresholdSchema,
  label,
  MONITOR_THRESHOLD_CALLS,
  saveAreaThresholdSchema,
  type Lang,
} from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeOf, ok } from '../../../http/envelope';
import { authOf } from '../../../http/request-context';
import type { AreaThresholdService } from './area-threshold.service';

/** Names of the fields in validation messages. */
const fieldLabels: Record<string, { label: Record<Lang, string> }> = {
  area: { label: label('Area', '业务', '業務') },
  productId: { label: label('Product', '产品', '產品') },
  deviceId: { label: label('Device', '设备', '設備') },
  propertyKey: { label: label('Factor', '监测因子', '監測因子') },
  warning: { label: label('Warning', '预警', '預警') },
  danger: { label: label('Danger', '危险', '危險') },
  hysteresis: { label: label('Hysteresis', '回差', '回差') },
  noDataMinutes: { label: label('No data (min)', '无数据(分钟)', '無資料(分鐘)') },
};
const granted = { permission: 'granted' as const, fieldLabels };
const tags = ['monitor configuration'];

/** The monitor configuration's thresholds: read an area's, save one factor's. */
export async function areaThresholdRoutes(
  fastify: FastifyInstance,
  deps: { thresholds: AreaThresholdService },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(MONITOR_THRESHOLD_CALLS.query, {
    config: granted,
    schema: {
      tags,
      summary:
        "The area's products and, for one product (or one device), every numeric factor's warning, danger and no-data thresholds",
      querystring: areaThresholdQuerySchema,
      response: { 200: envelopeOf(areaThresholdSchema) },
    },
    handler: async (request) => ok(await deps.thresholds.query(authOf(request), request.query)),
  });

  app.post(MONITOR_THRESHOLD_CALLS.save, {
    config: granted,
    schema: {
      tags,
      summary:
        "Save one factor's warning (yellow) and danger (red) rules, hysteresis and no-data rule together, all or nothing",
      body: saveAreaThresholdSchema,
      response: { 200: envelopeOf(factorThresholdSchema) },
    },
    handler: async (request) =>
      ok(await deps.thresholds.save(authOf(request), request.lang, request.body)),
  });
}
