import { z } from 'zod';
import { PUBLIC_TRACE_SECTIONS } from './public-trace-paths';

/**
 * The public, signed-out page of one package batch (`/traceHome?code=…`, docs/traceability.md
 * "Public page"): what `GET /api/trace/public/{code}` answers. Only what the tenant's page
 * settings show is filled (a hidden section is null or empty); places are at village level; the
 * recall is always shown. Every date is an ISO 8601 instant.
 */

/** Where a figure comes from: recorded by the plot's devices, or typed in by a person. */
export const TRACE_SOURCES = ['sensor', 'entered'] as const;

const instant = z.string();

const figureSchema = <T extends z.ZodRawShape>(shape: T) =>
  z.object({ ...shape, source: z.literal('sensor') });

/** Summaries of the plot's devices' stored readings between sowing and harvest. */
export const publicTraceSensorsSchema = z.object({
  source: z.literal('sensor'),
  from: instant,
  to: instant,
  /** The plot's devices (trace_area_device); those that recorded anything below. */
  devices: z.number().int(),
  /** mm over the period: the mean of the rain gauges' totals. */
  rainfall: figureSchema({ totalMm: z.number(), readings: z.number().int() }).nullable(),
  /** °C of the air. */
  temperature: figureSchema({
    min: z.number(),
    mean: z.number(),
    max: z.number(),
    readings: z.number().int(),
  }).nullable(),
  /** Volumetric soil moisture, % (every depth). */
  soilMoisture: figureSchema({ mean: z.number(), readings: z.number().int() }).nullable(),
});
export type PublicTraceSensors = z.infer<typeof publicTraceSensorsSchema>;

export const publicTraceFarmworkSchema = z.object({
  source: z.literal('entered'),
  workType: z.enum(['fertilizing', 'spraying', 'irrigation', 'weeding', 'other']),
  product: z.string().nullable(),
  dose: z.number().nullable(),
  doseUnit: z.string().nullable(),
  doneAt: instant,
  /** Pre-harvest interval in days (sprayings), when the first harvest may follow, and whether it did. */
  phiDays: z.number().int().nullable(),
  allowedFrom: instant.nullable(),
  respected: z.boolean().nullable(),
});
export type PublicTraceFarmwork = z.infer<typeof publicTraceFarmworkSchema>;

/** One harvest batch the package comes from (several when a process mixed them). */
export const publicTraceOriginSchema = z.object({
  cropName: z.string(),
  variety: z.string(),
  /** Base and plot at village level: no address, no coordinates, no outline. */
  base: z.object({ name: z.string(), village: z.string() }).nullable(),
  plot: z.object({ name: z.string(), areaMu: z.number().nullable() }).nullable(),
  producer: z.object({ name: z.string(), code: z.string() }).nullable(),
  plantingCode: z.string().nullable(),
  sownAt: instant,
  harvest: z.object({
    batchNo: z.string().nullable(),
    harvestedAt: instant,
    quantity: z.number(),
    unit: z.string(),
    grade: z.string().nullable(),
    recalled: z.boolean(),
  }),
  farmwork: z.array(publicTraceFarmworkSchema),
  sensors: publicTraceSensorsSchema.nullable(),
});
export type PublicTraceOrigin = z.infer<typeof publicTraceOriginSchema>;

export const publicTraceProcessSchema = z.object({
  processNo: z.string().nullable(),
  processType: z.enum(['washing', 'sorting', 'drying', 'milling', 'cutting', 'other']),
  startedAt: instant,
  endedAt: instant.nullable(),
  inputQuantity: z.number(),
  outputQuantity: z.number().nullable(),
  unit: z.string(),
});

export const publicTraceShipmentSchema = z.object({
  source: z.literal('entered'),
  packageCount: z.number().int(),
  carrier: z.string().nullable(),
  fromPlace: z.string(),
  toPlace: z.string(),
  departedAt: instant,
  arrivedAt: instant.nullable(),
  /** °C recorded on the way, when any. */
  temperature: z
    .object({ min: z.number(), max: z.number(), readings: z.number().int() })
    .nullable(),
});

export const publicTraceSchema = z.object({
  code: z.string(),
  page: z.object({
    title: z.string().nullable(),
    /** #RRGGBB */
    color: z.string().nullable(),
    /** A path on this server or an inline image (another site's address is left out). */
    logo: z.string().nullable(),
    contact: z.string().nullable(),
    sections: z.record(z.enum(PUBLIC_TRACE_SECTIONS), z.boolean()),
  }),
  /** Recalled itself or made from something recalled (computed through the chain). */
  recall: z.object({
    recalled: z.boolean(),
    at: instant.nullable(),
    reason: z.string().nullable(),
  }),
  product: z
    .object({
      cropName: z.string(),
      variety: z.string(),
      gtin: z.string().nullable(),
      lot: z.string().nullable(),
      packageCount: z.number().int(),
      netQuantity: z.number(),
      unit: z.string(),
      packedAt: instant,
      bestBefore: instant.nullable(),
    })
    .nullable(),
  producer: z
    .object({ name: z.string(), code: z.string(), commitment: z.string().nullable() })
    .nullable(),
  origins: z.array(publicTraceOriginSchema),
  processing: z.array(publicTraceProcessSchema),
  shipments: z.array(publicTraceShipmentSchema),
  scans: z.object({
    /** This look-up included. */
    count: z.number().int(),
    firstAt: instant,
    suspicious: z.boolean(),
    /** scans: more than SUSPICIOUS_SCANS; clients: more than SUSPICIOUS_CLIENTS_PER_DAY in 24 h. */
    reason: z.enum(['scans', 'clients']).nullable(),
  }),
});
export type PublicTrace = z.infer<typeof publicTraceSchema>;

/**
 * The code as the page sends it (stored form), or as a person or resolver writes it: letters,
 * digits and dashes; the handler then reads it as /search does (parseTraceCode).
 */
export const publicTraceParamsSchema = z.object({
  code: z
    .string()
    .max(64)
    .regex(/^[0-9A-Za-z-]*$/, { error: 'validation.invalid' }),
});
