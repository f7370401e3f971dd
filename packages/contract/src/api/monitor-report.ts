import { z } from 'zod';
import { AREAS } from '../areas/areas';
import { instantOf } from './iot-telemetry';

/** Calls of the area data report (server routes, web client). */
export const MONITOR_REPORT_CALLS = {
  query: '/api/monitor/report/queryAreaReport',
  export: '/api/monitor/report/exportAreaReport',
} as const;

/** Buckets of the data report: every reading, or aggregates per hour, day or month. */
export const REPORT_BUCKETS = ['raw', 'hour', 'day', 'month'] as const;
export type ReportBucket = (typeof REPORT_BUCKETS)[number];

/** Devices × factors of one report (the telemetry aggregate call keeps its own 20). */
export const REPORT_MAX_SERIES = 200;
export const REPORT_MAX_DEVICES = 100;
/** Readings one raw report answers at most; beyond it the report asks for a bucket. */
export const REPORT_RAW_LIMIT = 20_000;
/** The longest range (days) of a report per bucket. */
export const REPORT_MAX_RANGE_DAYS: Record<ReportBucket, number> = {
  raw: 31,
  hour: 93,
  day: 1100,
  month: 3660,
};

/**
 * Factors that count up until the meter resets (a water meter's volume, an energy meter's kWh):
 * their total over a period is the increase, never the sum of readings.
 */
export const COUNTER_FACTORS: readonly string[] = ['cumulativeVolume', 'energy', 'rainfallTotal'];

/** How a factor's total is formed: readings added up (rain per reading), a counter's increase, none. */
export type ReportTotal = 'sum' | 'increase' | null;

const invalid = { error: 'validation.invalid' };

/** A comma list of up to `max` items each matching `item`. */
const commaList = (item: RegExp, max: number) =>
  z
    .string()
    .max(max * 65)
    .refine((text) => {
      const items = text.split(',');
      return items.length <= max && items.every((one) => item.test(one));
    }, invalid);

const instant = z
  .string()
  .max(40)
  .refine((text) => !Number.isNaN(instantOf(text).getTime()), invalid);

const areaCodes = AREAS.map((area) => area.code) as [string, ...string[]];

/** GET queryAreaReport (and exportAreaReport with `format`). No area: the cross-area report. */
export const areaReportQuerySchema = z.object({
  area: z.enum(areaCodes).optional(),
  deviceIds: commaList(/^\d{1,18}$/, REPORT_MAX_DEVICES),
  keys: commaList(/^[a-z][A-Za-z0-9_]{0,63}$/, 50),
  start: instant,
  end: instant,
  bucket: z.enum(REPORT_BUCKETS),
});
export type AreaReportQuery = z.infer<typeof areaReportQuerySchema>;

export const areaReportExportQuerySchema = areaReportQuerySchema.extend({
  format: z.enum(['xlsx', 'csv']).default('xlsx'),
});
export type AreaReportExportQuery = z.infer<typeof areaReportExportQuerySchema>;

const labelSchema = z.object({ en: z.string(), zh: z.string(), tw: z.string() });
const value = z.number().nullable();

/** Statistics of one series over the whole range (readings, not buckets). */
export const reportStatsSchema = z.object({
  count: z.number(),
  min: value,
  max: value,
  mean: value,
  /** Null when the factor has no total (ReportTotal). */
  total: value,
});
export type ReportStats = z.infer<typeof reportStatsSchema>;

/**
 * One device's factor: its statistics and its points, column by column (an hourly month of 150
 * series is 108,000 points: arrays keep the answer a third of an object per point).
 */
export const reportSeriesSchema = z.object({
  deviceId: z.string(),
  key: z.string(),
  stats: reportStatsSchema,
  /** Bucket starts (cut in the tenant's zone) or reading times, epoch milliseconds, ascending. */
  at: z.array(z.number()),
  /** The reading (raw) or the bucket's mean. */
  avg: z.array(value),
  min: z.array(value),
  max: z.array(value),
  count: z.array(z.number()),
  /** Per bucket: the sum or the increase (factors with a total; raw: absent). */
  total: z.array(value).optional(),
});
export type ReportSeries = z.infer<typeof reportSeriesSchema>;

export const areaReportSchema = z.object({
  timeZone: z.string(),
  bucket: z.enum(REPORT_BUCKETS),
  devices: z.array(
    z.object({
      id: z.string(),
      deviceNo: z.string(),
      deviceName: z.string().nullable(),
      deviceKind: z.string().nullable(),
    }),
  ),
  factors: z.array(
    z.object({
      key: z.string(),
      name: labelSchema,
      type: z.string(),
      unit: z.string().nullable(),
      precision: z.number().nullable(),
      total: z.enum(['sum', 'increase']).nullable(),
    }),
  ),
  series: z.array(reportSeriesSchema),
});
export type AreaReport = z.infer<typeof areaReportSchema>;
