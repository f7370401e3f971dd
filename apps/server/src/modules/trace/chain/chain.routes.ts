import {
  buildEpcisDocument,
  label,
  parseTraceCode,
  TRACE_BATCH_LIMIT,
  TRACE_CHAIN_CALLS,
  traceBatchQuerySchema,
  traceBatchSchema,
  traceCertificateQuerySchema,
  traceChainQuerySchema,
  traceChainSchema,
  traceLabelQuerySchema,
  type TraceCodeProblem,
} from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database, Sql } from '../../../db/database';
import { AppError } from '../../../http/app-error';
import { envelopeOf, ok } from '../../../http/envelope';
import { authOf } from '../../../http/request-context';
import { contentDisposition } from '../../export/export-renderer';
import { renderCertificate, renderLabelSheet } from '../labels/trace-labels';
import { epcisChainOf } from './chain-epcis';
import { certificateOf, labelSheetOf } from './chain-prints';
import { readChain } from './chain-view';
import { chainRepo, type ChainStart } from './chain.repo';

const fieldLabels = {
  kind: { label: label('Batch kind', '批次类型', '批次類型') },
  id: { label: label('Batch', '批次', '批次') },
  code: { label: label('Trace code', '追溯码', '追溯碼') },
  batch: { label: label('Batch number', '批次号', '批次號') },
  q: { label: label('Search', '搜索', '搜尋') },
  packageId: { label: label('Package batch', '包装批次', '包裝批次') },
  copies: { label: label('Labels', '标签数量', '標籤數量') },
};
const granted = { permission: 'granted' as const, fieldLabels };
const tags = ['trace'];

const CODE_PROBLEMS: Record<TraceCodeProblem, string> = {
  empty: 'trace.public.codeEmpty',
  characters: 'trace.public.codeCharacters',
  length: 'trace.public.codeLength',
  check: 'trace.public.codeCheck',
};

/** A 404 naming the field whose batch this tenant does not have (another tenant's is one too). */
const notFound = (field: string, value: string) =>
  new AppError(404, 'trace.chain.notFound', {
    params: { value },
    fields: [{ field, key: 'trace.chain.notFound', params: { value } }],
  });

/**
 * The batch a query names, in the caller's tenant: by kind and id, by trace code (read as
 * /search reads it: a malformed one is a 400 naming `code`), or by number (a harvest batch
 * number, a process number, else a trace code). Row-level security answers every other
 * tenant's batch as none: a 404.
 */
async function startOf(sql: Sql, query: z.output<typeof traceChainQuerySchema>) {
  if (query.id !== undefined && query.kind !== undefined) {
    const start: ChainStart = { kind: query.kind, id: query.id };
    if (!(await chainRepo.exists(sql, start))) throw notFound('id', query.id);
    return start;
  }
  if (query.code) {
    const parsed = parseTraceCode(query.code);
    if (!parsed.ok)
      throw new AppError(400, CODE_PROBLEMS[parsed.reason], {
        fields: [{ field: 'code', key: CODE_PROBLEMS[parsed.reason] }],
      });
    const id = await chainRepo.packageByCode(sql, parsed.code);
    if (!id) throw notFound('code', parsed.code);
    return { kind: 'package', id } satisfies ChainStart;
  }
  const batch = query.batch ?? '';
  const byNumber = await chainRepo.byNumber(sql, batch);
  if (byNumber) return byNumber;
  const parsed = parseTraceCode(batch);
  const id = parsed.ok ? await chainRepo.packageByCode(sql, parsed.code) : undefined;
  if (!id) throw notFound('batch', batch);
  return { kind: 'package', id } satisfies ChainStart;
}

/** A package batch of the caller's tenant, or a 404 naming packageId. */
async function packageStart(sql: Sql, packageId: string): Promise<ChainStart> {
  const start: ChainStart = { kind: 'package', id: packageId };
  if (!(await chainRepo.exists(sql, start))) throw notFound('packageId', packageId);
  return start;
}

const fileName = (name: string) => name.replace(/[^A-Za-z0-9_.-]+/g, '-');

/**
 * A batch's chain (/traceabilitySystem/resume, docs/traceability.md "Resume"): the chain as the
 * page draws it, the batches to start from, the chain's EPCIS 2.0 export, and a package batch's
 * label sheet and compliance certificate. Granted calls of the resume's menu; the default
 * operator holds them all (they only read).
 */
export async function traceChainRoutes(
  fastify: FastifyInstance,
  deps: { db: Database; publicUrl: string },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(TRACE_CHAIN_CALLS.query, {
    config: granted,
    schema: {
      tags,
      summary:
        'One batch’s chain, backwards to its plot, planting, farm work and growth records and forwards to its processes, package batches and shipments, with the recall state of each',
      querystring: traceChainQuerySchema,
      response: { 200: envelopeOf(traceChainSchema) },
    },
    handler: async (request) =>
      ok(
        await deps.db.tenant(authOf(request), async (sql) => {
          const start = await startOf(sql, request.query);
          return (await readChain(sql, start)).view;
        }),
      ),
  });

  app.get(TRACE_CHAIN_CALLS.batches, {
    config: granted,
    schema: {
      tags,
      summary:
        'Batches whose batch number, process number, trace code or lot starts with q (the newest when q is blank)',
      querystring: traceBatchQuerySchema,
      response: { 200: envelopeOf(z.array(traceBatchSchema)) },
    },
    handler: async (request) =>
      ok(
        await deps.db.tenant(authOf(request), (sql) =>
          chainRepo.batches(sql, request.query.q ?? '', TRACE_BATCH_LIMIT),
        ),
      ),
  });

  app.post(TRACE_CHAIN_CALLS.epcis, {
    config: { ...granted, reads: true },
    schema: {
      tags,
      summary:
        'One batch’s chain as GS1 EPCIS 2.0 JSON-LD: ObjectEvent for the harvest and shipping, TransformationEvent for processing, AggregationEvent for packing',
      querystring: traceChainQuerySchema,
      produces: ['application/ld+json'],
    },
    handler: async (request, reply) => {
      const auth = authOf(request);
      const { read, number } = await deps.db.tenant(auth, async (sql) => {
        const start = await startOf(sql, request.query);
        const read = await readChain(sql, start);
        return { read, number: read.view.start.number };
      });
      const document = buildEpcisDocument(epcisChainOf(read.view, read.timeZone), {
        idBase: `urn:shuili:trace:${encodeURIComponent(auth.tenantCode)}:`,
        sender: deps.publicUrl,
      });
      const body = Buffer.from(JSON.stringify(document, null, 2));
      return reply
        .header('content-type', 'application/ld+json; charset=utf-8')
        .header('content-disposition', contentDisposition(`epcis-${fileName(number)}.jsonld`))
        .header('content-length', body.length)
        .send(body);
    },
  });

  app.post(TRACE_CHAIN_CALLS.labels, {
    config: { ...granted, reads: true },
    schema: {
      tags,
      summary:
        'A package batch’s QR labels as a PDF (3 × 8 on A4; 24 by default), each opening its public page',
      querystring: traceLabelQuerySchema,
      produces: ['application/pdf'],
    },
    handler: async (request, reply) => {
      const input = await deps.db.tenant(authOf(request), async (sql) => {
        const start = await packageStart(sql, request.query.packageId);
        return labelSheetOf(
          await readChain(sql, start),
          start.id,
          deps.publicUrl,
          request.query.copies,
        );
      });
      if (!input) throw notFound('packageId', request.query.packageId);
      const pdf = await renderLabelSheet(input);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', contentDisposition(`labels-${input.label.traceCode}.pdf`))
        .header('content-length', pdf.length)
        .send(pdf);
    },
  });

  app.post(TRACE_CHAIN_CALLS.certificate, {
    config: { ...granted, reads: true },
    schema: {
      tags,
      summary:
        'A package batch’s compliance certificate (承诺达标合格证) as a PDF, in its producer’s language; refused for a recalled batch',
      querystring: traceCertificateQuerySchema,
      produces: ['application/pdf'],
    },
    handler: async (request, reply) => {
      const input = await deps.db.tenant(authOf(request), async (sql) => {
        const start = await packageStart(sql, request.query.packageId);
        const read = await readChain(sql, start);
        if (read.view.packages.find((one) => one.id === start.id)?.recalled)
          throw new AppError(409, 'trace.chain.recalledCertificate', {
            fields: [{ field: 'packageId', key: 'trace.chain.recalledCertificate' }],
          });
        return certificateOf(read, start.id, deps.publicUrl);
      });
      if (!input) throw notFound('packageId', request.query.packageId);
      const pdf = await renderCertificate(input);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', contentDisposition(`certificate-${input.traceCode}.pdf`))
        .header('content-length', pdf.length)
        .send(pdf);
    },
  });
}
