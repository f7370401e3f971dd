import {
  PUBLIC_TRACE_ROUTE,
  parseTraceCode,
  publicTraceParamsSchema,
  publicTraceSchema,
  type Lang,
  type TraceCodeProblem,
} from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database } from '../../../db/database';
import { loadOrCreateSecret } from '../../../db/server-secret';
import { AppError, tooManyRequests } from '../../../http/app-error';
import { envelopeOf, ok } from '../../../http/envelope';
import { clientKey, RATE_RULES, type RateLimitService } from '../../uaa/rate-limit.service';
import { PublicTraceService } from './public-trace.service';

const fieldLabels: Record<string, { label: Record<Lang, string> }> = {
  code: { label: { en: 'Trace code', zh: '溯源码', tw: '溯源碼' } },
};

const PROBLEM_KEYS: Record<TraceCodeProblem, string> = {
  empty: 'trace.public.codeEmpty',
  characters: 'trace.public.codeCharacters',
  length: 'trace.public.codeLength',
  check: 'trace.public.codeCheck',
};

/**
 * The public trace page's data (docs/traceability.md "Public page"): no sign-in, limited per
 * client address like the sign-in form's tenant look-up, the code read leniently (lower case,
 * dashes, a whole scanned address), each look-up counted as a scan.
 */
export async function publicTraceRoutes(
  fastify: FastifyInstance,
  deps: { db: Database; rateLimits: RateLimitService },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const service = new PublicTraceService(deps.db, await loadOrCreateSecret(deps.db, 'trace-scan'));

  app.get(PUBLIC_TRACE_ROUTE, {
    config: { permission: 'public', fieldLabels },
    schema: {
      tags: ['trace'],
      summary: 'The public page of a trace code (counts the scan; no sign-in)',
      params: publicTraceParamsSchema,
      response: { 200: envelopeOf(publicTraceSchema) },
    },
    handler: async (request) => {
      const key = clientKey(request.ip);
      const locked = await deps.rateLimits.attempt(
        `trace-public:${key}`,
        RATE_RULES.traceLookupsPerIp,
      );
      if (locked > 0) throw tooManyRequests(locked);
      const parsed = parseTraceCode(request.params.code);
      if (!parsed.ok)
        throw new AppError(400, PROBLEM_KEYS[parsed.reason], {
          fields: [{ field: 'code', key: PROBLEM_KEYS[parsed.reason] }],
        });
      const trace = await service.lookUp(parsed.code, {
        key,
        userAgent: request.headers['user-agent']?.slice(0, 512) ?? null,
      });
      if (!trace)
        throw new AppError(404, 'trace.public.notFound', { params: { code: parsed.code } });
      return ok(trace);
    },
  });
}
