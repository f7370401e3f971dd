import { z } from 'zod';
import { THING_VALUE_TYPES } from '../iot/thing-model';

/** Calls of the telemetry queries (server routes, web client). */
export const TELEMETRY_CALLS = {
  latest: '/api/iot/telemetry/queryLatest',
  history: '/api/iot/telemetry/queryHistory',
  aggregate: '/api/iot/telemetry/queryAggregate',
  export: '/api/iot/telemetry/exportTelemetry',
  ingestStat: '/api/iot/telemetry/queryIngestStat',
} as const;

export const TELEMETRY_BUCKETS = ['minute', 'hour', 'day', 'month'] as const;
export type TelemetryBucket = (typeof TELEMETRY_BUCKETS)[number];
export const TELEMETRY_FNS = ['avg', 'min', 'max', 'sum', 'count'] as const;
export type TelemetryFn = (typeof TELEMETRY_FNS)[number];

/** The longest range (days) one query may span: raw history, and per aggregate bucket. */
export const TELEMETRY_MAX_RANGE_DAYS: Record<'raw' | TelemetryBucket, number> = {
  raw: 366,
  minute: 2,
  hour: 93,
  day: 1100,
  month: 3660,
};
/** Devices × keys of one aggregate or export. */
export const TELEMETRY_MAX_SERIES = 20;

const invalid = { error: 'validation.invalid' };
const id = z.string().regex(/^\d{1,18}$/, invalid);
/** An instant: ISO 8601 with offset, or milliseconds since the epoch. */
const instant = z
  .string()
  .max(40)
  .refine((text) => !Number.isNaN(instantOf(text).getTime()), invalid);
const keyList = z
  .string()
  .max(2000)
  .regex(/^[a-z][A-Za-z0-9_]{0,63}(,[a-z][A-Za-z0-9_]{0,63})*$/, invalid);
const idList = z
  .string()
  .max(1000)
  .regex(/^\d{1,18}(,\d{1,18})*$/, invalid);

/** Parses a query instant: digits are epoch milliseconds, anything else an ISO date-time. */
export function instantOf(text: string): Date {
  if (/^\d{1,16}$/.test(text)) return new Date(Number(text));
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/.test(text))
    return new Date(Number.NaN);
  return new Date(text);
}

/** "a,b,c" as a list (the query string's way of passing several values). */
export const splitList = (text: string | undefined): string[] =>
  text ? [...new Set(text.split(',').filter(Boolean))] : [];

export const telemetryDeviceQuerySchema = z.object({ deviceId: id });

export const telemetryHistoryQuerySchema = z.object({
  deviceId: id,
  /** Comma-separated property keys; all properties when absent. */
  keys: keyList.optional(),
  start: instant,
  end: instant,
  currentPage: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(1000).default(50),
});
export type TelemetryHistoryQuery = z.infer<typeof telemetryHistoryQuerySchema>;

export const telemetryAggregateQuerySchema = z.object({
  deviceIds: idList,
  keys: keyList,
  start: instant,
  end: instant,
  bucket: z.enum(TELEMETRY_BUCKETS),
  /** Comma-separated functions; all of them when absent. */
  fn: z
    .string()
    .max(100)
    .regex(/^(avg|min|max|sum|count)(,(avg|min|max|sum|count))*$/, invalid)
    .optional(),
});
export type TelemetryAggregateQuery = z.infer<typeof telemetryAggregateQuerySchema>;

export const telemetryExportQuerySchema = telemetryAggregateQuerySchema.extend({
  format: z.enum(['xlsx', 'csv']),
  /** raw: every reading; otherwise aggregates per bucket. */
  bucket: z.enum(['raw', ...TELEMETRY_BUCKETS]).default('raw'),
});
export type TelemetryExportQuery = z.infer<typeof telemetryExportQuerySchema>;

const labelSchema = z.object({ en: z.string(), zh: z.string(), tw: z.string() });

/** One property of the device's thing model with its latest value (null: never reported). */
export const telemetryLatestItemSchema = z.object({
  key: z.string(),
  name: labelSchema,
  type: z.enum(THING_VALUE_TYPES),
  unit: z.string().nullable(),
  precision: z.number().nullable(),
  options: z.array(z.object({ value: z.number(), label: labelSchema })).nullable(),
  value: z.number().nullable(),
  textValue: z.string().nullable(),
  ts: z.string().nullable(),
});
export type TelemetryLatestItem = z.infer<typeof telemetryLatestItemSchema>;

export const telemetryHistoryItemSchema = z.object({
  key: z.string(),
  ts: z.string(),
  value: z.number().nullable(),
  textValue: z.string().nullable(),
});
export type TelemetryHistoryItem = z.infer<typeof telemetryHistoryItemSchema>;

/** One bucket of one device's key; only the asked functions are present. */
export const telemetryAggregateItemSchema = z.object({
  deviceId: z.string(),
  key: z.string(),
  /** The bucket's first instant (ISO), buckets cut in the tenant's time zone. */
  bucket: z.string(),
  avg: z.number().nullable().optional(),
  min: z.number().nullable().optional(),
  max: z.number().nullable().optional(),
  sum: z.number().nullable().optional(),
  count: z.number().optional(),
});
export type TelemetryAggregateItem = z.infer<typeof telemetryAggregateItemSchema>;

export const telemetryAggregateSchema = z.object({
  timeZone: z.string(),
  list: z.array(telemetryAggregateItemSchema),
});

/** A device's ingestion counters: what was stored and what was refused, and why last. */
export const ingestStatSchema = z.object({
  deviceId: z.string(),
  accepted: z.number(),
  unknownKeys: z.number(),
  wrongType: z.number(),
  outOfRange: z.number(),
  badPayload: z.number(),
  badTime: z.number(),
  lastProblem: z.string().nullable(),
  lastProblemAt: z.string().nullable(),
  lastAcceptedAt: z.string().nullable(),
});
export type IngestStat = z.infer<typeof ingestStatSchema>;
