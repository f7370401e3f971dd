import {
  batchValveControlResultSchema,
  batchValveControlSchema,
  IRRIGATION_CALLS,
  label,
  scheduleRunQuerySchema,
  scheduleRunSchema,
  stopRotationSchema,
  waterDeliveredQuerySchema,
  waterDeliveredSchema,
} from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeOf, ok } from '../../../http/envelope';
import { authOf } from '../../../http/request-context';
import type { IrrigationService } from './irrigation.service';

const fieldLabels = {
  zoneId: { label: label('Zone', '区域', '區域') },
  groupId: { label: label('Valve group', '轮灌组', '輪灌組') },
  action: { label: label('Action', '操作', '操作') },
  durationMinutes: { label: label('Duration (min)', '时长(分钟)', '時長(分鐘)') },
  start: { label: label('Start', '开始日期', '開始日期') },
  end: { label: label('End', '结束日期', '結束日期') },
  bucket: { label: label('Period', '统计周期', '統計週期') },
  scheduleId: { label: label('Schedule', '轮灌计划', '輪灌計畫') },
  kind: { label: label('Kind', '类型', '類型') },
};

/** The irrigation area's calls (batch control, water delivered, schedule runs). */
export async function irrigationRoutes(
  fastify: FastifyInstance,
  deps: { irrigation: IrrigationService },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['monitor'];
  const config = { permission: 'granted' as const, fieldLabels };

  app.post(IRRIGATION_CALLS.batchValveControl, {
    config,
    schema: {
      tags,
      summary:
        'Open (for a duration) or close every valve channel of a zone or valve group; per device, which commands were accepted and which refused',
      body: batchValveControlSchema,
      response: { 200: envelopeOf(batchValveControlResultSchema) },
    },
    handler: async (request) =>
      ok(await deps.irrigation.batchValveControl(authOf(request), request.lang, request.body)),
  });

  app.get(IRRIGATION_CALLS.waterDelivered, {
    config,
    schema: {
      tags,
      summary: 'Water delivered per zone per day, week or month, and valve open hours',
      querystring: waterDeliveredQuerySchema,
      response: { 200: envelopeOf(waterDeliveredSchema) },
    },
    handler: async (request) =>
      ok(await deps.irrigation.waterDelivered(authOf(request), request.query)),
  });

  app.get(IRRIGATION_CALLS.scheduleRuns, {
    config,
    schema: {
      tags,
      summary: 'The newest runs of rotation schedules or soil-moisture rules and their decisions',
      querystring: scheduleRunQuerySchema,
      response: { 200: envelopeOf(z.array(scheduleRunSchema)) },
    },
    handler: async (request) =>
      ok(await deps.irrigation.scheduleRuns(authOf(request), request.query)),
  });

  app.post(IRRIGATION_CALLS.stopRotation, {
    config,
    schema: {
      tags,
      summary: 'End a rotation under way (its remaining steps; its channels are let go)',
      body: stopRotationSchema,
      response: { 200: envelopeOf(z.object({ stoppedSteps: z.number() })) },
    },
    handler: async (request) =>
      ok(await deps.irrigation.stopRotation(authOf(request), request.body.scheduleId)),
  });
}
