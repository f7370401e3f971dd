import {
  commandViewSchema,
  label,
  LED_CALLS,
  ledProgramContentSaveSchema,
  ledProgramContentSchema,
  ledProgramEntity,
  ledProgramIdSchema,
  ledSendQuerySchema,
  ledSendResultSchema,
  ledSendSchema,
} from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeOf, ok } from '../../../http/envelope';
import { authOf } from '../../../http/request-context';
import type { LedLiveValues } from './led-live-values';
import type { LedProgramService } from './led-program.service';

const fieldLabels = {
  id: { label: label('Program', '节目', '節目') },
  programId: { label: label('Program', '节目', '節目') },
  deviceIds: { label: label('Screens', '屏幕', '螢幕') },
  width: ledProgramEntity.fields.width!,
  height: ledProgramEntity.fields.height!,
  pages: { label: label('Pages', '页面', '頁面') },
  commandIds: { label: label('Commands', '指令', '指令') },
};

/** The LED area's own calls: a program's pages, copies, sending to screens and its progress. */
export async function ledRoutes(
  fastify: FastifyInstance,
  deps: { programs: LedProgramService; live: LedLiveValues },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['monitor'];
  const config = { permission: 'granted' as const, fieldLabels };

  app.get(LED_CALLS.content, {
    config,
    schema: {
      tags,
      summary: 'An LED program with its pages',
      querystring: ledProgramIdSchema,
      response: { 200: envelopeOf(ledProgramContentSchema) },
    },
    handler: async (request) => ok(await deps.programs.content(authOf(request), request.query.id)),
  });

  app.put(LED_CALLS.saveContent, {
    config,
    schema: {
      tags,
      summary:
        "Saves an LED program's resolution and pages (elements inside it, live values bound to properties their devices have)",
      body: ledProgramContentSaveSchema,
      response: { 200: envelopeOf(ledProgramContentSchema) },
    },
    handler: async (request) => {
      const auth = authOf(request);
      const saved = await deps.programs.saveContent(auth, request.body);
      deps.live.forget(auth.tenantId);
      return ok(saved);
    },
  });

  app.post(LED_CALLS.copy, {
    config,
    schema: {
      tags,
      summary: 'Copies an LED program under the next free code',
      body: ledProgramIdSchema,
      response: { 200: envelopeOf(ledProgramContentSchema) },
    },
    handler: async (request) =>
      ok(await deps.programs.copy(authOf(request), request.lang, request.body.id)),
  });

  app.post(LED_CALLS.send, {
    config,
    schema: {
      tags,
      summary:
        'Sends an LED program to screens: one setProgram command each, acknowledged by the screen',
      body: ledSendSchema,
      response: { 200: envelopeOf(z.array(ledSendResultSchema)) },
    },
    handler: async (request) => ok(await deps.programs.send(authOf(request), request.body)),
  });

  app.get(LED_CALLS.sends, {
    config,
    schema: {
      tags,
      summary: 'The setProgram commands of earlier sends, as they stand now',
      querystring: ledSendQuerySchema,
      response: { 200: envelopeOf(z.array(commandViewSchema)) },
    },
    handler: async (request) =>
      ok(await deps.programs.sends(authOf(request), request.query.commandIds)),
  });
}
