import { z } from 'zod';
import { TRACE_PATH } from '../entities/trace/trace-targets';
import { idSchema } from '../entity-kit/schemas';

/**
 * One batch's whole chain (/traceabilitySystem/resume, docs/traceability.md "Resume"):
 * backwards to its plot, planting, farm work and growth records, forwards to the processes,
 * package batches and shipments made from it, with the recall state of every node; its EPCIS
 * 2.0 export, and a package batch's label sheet and compliance certificate.
 */
export const TRACE_CHAIN_CALLS = {
  /** GET: the chain of one batch (TraceChainQuery), as the resume page draws it. */
  query: `${TRACE_PATH}/chain/queryTraceChain`,
  /** GET ?q=: the batches whose number, process number, trace code or lot starts with q (the newest when q is blank). */
  batches: `${TRACE_PATH}/chain/queryTraceBatch`,
  /** POST (TraceChainQuery in the query string): the chain as EPCIS 2.0 JSON-LD, a download. */
  epcis: `${TRACE_PATH}/chain/exportTraceEpcis`,
  /** POST ?packageId=&copies=: a package batch's sheet of QR labels (PDF). */
  labels: `${TRACE_PATH}/chain/downloadTraceLabels`,
  /** POST ?packageId=: a package batch's compliance certificate (PDF, the producer's language). */
  certificate: `${TRACE_PATH}/chain/downloadTraceCertificate`,
} as const;

/** What a chain starts from. */
export const TRACE_CHAIN_KINDS = ['harvest', 'process', 'package'] as const;
export type TraceChainKind = (typeof TRACE_CHAIN_KINDS)[number];

/** Most batches one look-up answers. */
export const TRACE_BATCH_LIMIT = 20;
/** Labels one download prints at most (100 sheets of 24; the renderer's MAX_LABEL_COPIES). */
export const TRACE_LABEL_COPIES_MAX = 2400;
/** Labels by default: one A4 sheet. */
export const TRACE_LABEL_COPIES_DEFAULT = 24;

/** Typed or scanned text: no control characters (PostgreSQL text cannot hold NUL). */
const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: 'validation.invalid' })
    // eslint-disable-next-line no-control-regex -- control characters are what it refuses
    .regex(/^[^\u0000-\u001f\u007f]*$/, { error: 'validation.invalid' });

/**
 * The batch a chain starts from: `kind` and `id`, else a trace code (`code`, read as /search
 * reads it), else `batch`: a harvest batch number, a process number or a trace code. The first
 * of the three given is used.
 */
export const traceChainQuerySchema = z
  .object({
    kind: z.enum(TRACE_CHAIN_KINDS, { error: 'validation.invalid' }).optional(),
    id: idSchema.optional(),
    // A whole scanned address is read too (/search reads codes so).
    code: text(512).optional(),
    batch: text(512).optional(),
  })
  .superRefine((query, context) => {
    if (query.id !== undefined && query.kind === undefined)
      context.addIssue({ code: 'custom', path: ['kind'], message: 'validation.required' });
    if (query.id === undefined && !query.code && !query.batch)
      context.addIssue({ code: 'custom', path: ['batch'], message: 'validation.required' });
  });
export type TraceChainQuery = z.input<typeof traceChainQuerySchema>;

export const traceBatchQuerySchema = z.object({ q: text(64).optional() });

/** A batch to start a chain from (the search box's options). */
export const traceBatchSchema = z.object({
  kind: z.enum(TRACE_CHAIN_KINDS),
  id: z.string(),
  /** Batch number, process number or trace code. */
  number: z.string(),
  lot: z.string().nullable(),
  /** Crop and variety (of the first harvest it comes from). */
  product: z.string().nullable(),
  at: z.string(),
  recalled: z.boolean(),
});
export type TraceBatch = z.infer<typeof traceBatchSchema>;

export const traceLabelQuerySchema = z.object({
  packageId: idSchema,
  copies: z.coerce
    .number({ error: 'validation.invalid' })
    .int({ error: 'validation.invalid' })
    .min(1, { error: 'validation.invalid' })
    .max(TRACE_LABEL_COPIES_MAX, { error: 'validation.invalid' })
    .optional(),
});
export const traceCertificateQuerySchema = z.object({ packageId: idSchema });

const at = z.string();
const maybe = <T extends z.ZodType>(schema: T) => schema.nullable();
/** `recalled`: the node or anything it is made from is recalled; the rest: its own recall. */
const recall = {
  recalled: z.boolean(),
  recalledAt: maybe(at),
  recallReason: maybe(z.string()),
};

export const traceChainSchema = z.object({
  start: z.object({ kind: z.enum(TRACE_CHAIN_KINDS), id: z.string(), number: z.string() }),
  producers: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      code: z.string(),
      certLanguage: z.string(),
    }),
  ),
  bases: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      village: z.string(),
      address: maybe(z.string()),
      producerId: z.string(),
    }),
  ),
  plots: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      areaMu: maybe(z.number()),
      soil: maybe(z.string()),
      baseId: z.string(),
    }),
  ),
  plants: z.array(
    z.object({
      id: z.string(),
      cropName: z.string(),
      variety: z.string(),
      gtin: maybe(z.string()),
    }),
  ),
  plantings: z.array(
    z.object({
      id: z.string(),
      plantingCode: maybe(z.string()),
      plotId: z.string(),
      plantId: z.string(),
      sownAt: at,
      expectedHarvestAt: maybe(at),
      state: z.string(),
    }),
  ),
  growthRecords: z.array(
    z.object({
      id: z.string(),
      plantingId: z.string(),
      recordedAt: at,
      stage: z.string(),
      note: maybe(z.string()),
    }),
  ),
  farmwork: z.array(
    z.object({
      id: z.string(),
      plantingId: z.string(),
      workType: z.string(),
      product: maybe(z.string()),
      dose: maybe(z.number()),
      doseUnit: maybe(z.string()),
      operator: maybe(z.string()),
      doneAt: at,
      phiDays: maybe(z.number()),
      /** done at + interval: the first moment the plot may be harvested. */
      allowedFrom: maybe(at),
      /** Whether every harvest of the planting in this chain came after allowedFrom. */
      respected: maybe(z.boolean()),
    }),
  ),
  harvests: z.array(
    z.object({
      id: z.string(),
      batchNo: maybe(z.string()),
      plantingId: z.string(),
      harvestedAt: at,
      quantity: z.number(),
      unit: z.string(),
      grade: maybe(z.string()),
      /** What processing and packing took from it. */
      takenQuantity: z.number(),
      ...recall,
    }),
  ),
  processes: z.array(
    z.object({
      id: z.string(),
      processNo: maybe(z.string()),
      processType: z.string(),
      startedAt: at,
      endedAt: maybe(at),
      expectedYield: z.number(),
      inputs: z.array(z.object({ harvestId: z.string(), quantity: z.number() })),
      inputQuantity: z.number(),
      outputQuantity: maybe(z.number()),
      unit: z.string(),
      packedQuantity: z.number(),
      ...recall,
    }),
  ),
  packages: z.array(
    z.object({
      id: z.string(),
      traceCode: z.string(),
      harvestId: maybe(z.string()),
      processId: maybe(z.string()),
      gtin: maybe(z.string()),
      lot: maybe(z.string()),
      packageCount: z.number(),
      netQuantity: z.number(),
      unit: z.string(),
      packedAt: at,
      bestBefore: maybe(at),
      shippedCount: z.number(),
      scanCount: z.number(),
      digitalLink: maybe(z.string()),
      ...recall,
    }),
  ),
  shipments: z.array(
    z.object({
      id: z.string(),
      packageId: z.string(),
      packageCount: z.number(),
      carrier: maybe(z.string()),
      vehicle: maybe(z.string()),
      fromPlace: z.string(),
      toPlace: z.string(),
      departedAt: at,
      arrivedAt: maybe(at),
      temperatures: z.array(z.object({ at, celsius: z.number() })),
      minCelsius: maybe(z.number()),
      maxCelsius: maybe(z.number()),
      /** Its package batch is recalled. */
      recalled: z.boolean(),
    }),
  ),
});
export type TraceChainView = z.infer<typeof traceChainSchema>;
