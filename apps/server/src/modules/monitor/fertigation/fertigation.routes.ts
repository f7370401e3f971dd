import {
  FERTIGATION_CALLS,
  fertigationProgramIdSchema,
  fertigationRunQuerySchema,
  fertigationRunSchema,
  fertilizerUseQuerySchema,
  fertilizerUseSchema,
  label,
} from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeOf, ok, page, pageOf } from '../../../http/envelope';
import { authOf } from '../../../http/request-context';
import type { FertigationService } from './fertigation.service';
import type { FertilizerUseService } from './fertilizer-use.service';

const fieldLabels = {
  programId: { label: label('Program', '施肥程序', '施肥程式') },
  deviceId: { label: label('Device', '设备', '設備') },
  start: { label: label('Start', '开始时间', '開始時間') },
  end: { label: label('End', '结束时间', '結束時間') },
  bucket: { label: label('Period', '统计周期', '統計週期') },
};

/** Running fertigation programs, their history, and the fertilizer drawn per channel. */
export async function fertigationRoutes(
  fastify: FastifyInstance,
  deps: { fertigation: FertigationService; fertilizerUse: FertilizerUseService },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['monitor'];
  const config = { permission: 'granted' as const, fieldLabels };

  app.post(FERTIGATION_CALLS.start, {
    config,
    schema: {
      tags,
      summary: 'Run a fertigation program now: setRecipe, startProgram, then EC/pH watched',
      body: fertigationProgramIdSchema,
      response: { 200: envelopeOf(fertigationRunSchema) },
    },
    handler: async (request) =>
      ok(await deps.fertigation.start(authOf(request), request.lang, request.body.programId)),
  });

  app.post(FERTIGATION_CALLS.stop, {
    config,
    schema: {
      tags,
      summary: "Stop a program's run: the run ends as stopped and the machine is told to stop",
      body: fertigationProgramIdSchema,
      response: { 200: envelopeOf(fertigationRunSchema) },
    },
    handler: async (request) =>
      ok(await deps.fertigation.stop(authOf(request), request.lang, request.body.programId)),
  });

  app.get(FERTIGATION_CALLS.runs, {
    config,
    schema: {
      tags,
      summary: 'Fertigation runs, newest first, with their steps and outcome',
      querystring: fertigationRunQuerySchema,
      response: { 200: pageOf(fertigationRunSchema) },
    },
    handler: async (request) => {
      const query = request.query;
      const { list, total } = await deps.fertigation.runs(authOf(request), request.lang, query);
      return page(list, total, query.currentPage, query.pageSize);
    },
  });

  app.get(FERTIGATION_CALLS.fertilizerUse, {
    config,
    schema: {
      tags,
      summary: 'Litres of fertilizer drawn per channel and period (mean suction flow × hours)',
      querystring: fertilizerUseQuerySchema,
      response: { 200: envelopeOf(fertilizerUseSchema) },
    },
    handler: async (request) => ok(await deps.fertilizerUse.query(authOf(request), request.query)),
  });
}
