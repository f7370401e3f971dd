import { z } from 'zod';
import { AREAS } from '../areas/areas';

/** Calls of the monitor configuration's thresholds and of regional management. */
export const MONITOR_THRESHOLD_CALLS = {
  query: '/api/monitor/threshold/queryAreaThreshold',
  save: '/api/monitor/threshold/saveAreaThreshold',
} as const;
export const MONITOR_REGION_CALLS = {
  query: '/api/monitor/region/queryAreaRegion',
} as const;

/**
 * A factor's two threshold levels are alarm rules of these levels (ALARM_LEVELS): warning is
 * yellow, danger red; its no-data rule raises a warning too.
 */
export const THRESHOLD_LEVELS = { warning: 'yellow', danger: 'red', noData: 'yellow' } as const;
/** The conditions a threshold level may use (rate of change stays on the generic rule screen). */
export const THRESHOLD_KINDS = ['above', 'below', 'outside'] as const;
export type ThresholdKind = (typeof THRESHOLD_KINDS)[number];

const invalid = { error: 'validation.invalid' };
const id = z
  .union([z.string(), z.number().int().nonnegative()], invalid)
  .transform(String)
  .pipe(z.string().regex(/^\d{1,18}$/, invalid));
const areaCodes = AREAS.map((area) => area.code) as [string, ...string[]];
const areaCodeSchema = z.enum(areaCodes);
const threshold = z.number(invalid).min(-1e9).max(1e9).nullable().optional();

export const thresholdLevelSchema = z.object({
  kind: z.enum(THRESHOLD_KINDS, invalid),
  low: threshold,
  high: threshold,
});
export type ThresholdLevel = z.infer<typeof thresholdLevelSchema>;

/** GET queryAreaThreshold: the area's products and, for one of them, every numeric factor's rules. */
export const areaThresholdQuerySchema = z.object({
  area: areaCodeSchema,
  /** The product (default: the area's first); its rules, or one device's when deviceId is given. */
  productId: id.optional(),
  deviceId: id.optional(),
});

/** POST saveAreaThreshold: one factor's warning, danger and no-data rules, written together. */
export const saveAreaThresholdSchema = z.object({
  area: areaCodeSchema,
  productId: id,
  /** A device's own thresholds (beside its product's); absent: the product's. */
  deviceId: id.nullable().optional(),
  propertyKey: z.string().regex(/^[a-z][A-Za-z0-9_]{0,63}$/, invalid),
  /** Null removes the level's rule. */
  warning: thresholdLevelSchema.nullable(),
  danger: thresholdLevelSchema.nullable(),
  hysteresis: z.number(invalid).min(0).max(1e6).nullable().optional(),
  noDataMinutes: z.number(invalid).int(invalid).min(1).max(10_080).nullable().optional(),
});
export type SaveAreaThreshold = z.input<typeof saveAreaThresholdSchema>;

const labelSchema = z.object({ en: z.string(), zh: z.string(), tw: z.string() });
const storedLevel = z.object({
  ruleId: z.string(),
  kind: z.enum(THRESHOLD_KINDS),
  low: z.number().nullable(),
  high: z.number().nullable(),
  enabled: z.boolean(),
});

/** One factor's thresholds as stored. */
export const factorThresholdSchema = z.object({
  key: z.string(),
  name: labelSchema,
  unit: z.string().nullable(),
  precision: z.number().nullable(),
  min: z.number().nullable(),
  max: z.number().nullable(),
  warning: storedLevel.nullable(),
  danger: storedLevel.nullable(),
  hysteresis: z.number().nullable(),
  noData: z.object({ ruleId: z.string(), minutes: z.number() }).nullable(),
});
export type FactorThreshold = z.infer<typeof factorThresholdSchema>;

export const areaThresholdSchema = z.object({
  products: z.array(
    z.object({
      id: z.string(),
      productName: z.string(),
      serialNo: z.string(),
      deviceKind: z.string().nullable(),
    }),
  ),
  productId: z.string().nullable(),
  deviceId: z.string().nullable(),
  factors: z.array(factorThresholdSchema),
});
export type AreaThreshold = z.infer<typeof areaThresholdSchema>;

/** GET queryAreaRegion: the zones the area's devices are in, and the devices. */
export const areaRegionQuerySchema = z.object({ area: areaCodeSchema });

export const areaRegionSchema = z.object({
  zones: z.array(
    z.object({
      id: z.string(),
      parentId: z.string().nullable(),
      zoneName: z.string(),
      zoneCode: z.string().nullable(),
    }),
  ),
  devices: z.array(
    z.object({
      id: z.string(),
      deviceNo: z.string(),
      deviceName: z.string().nullable(),
      zoneId: z.string().nullable(),
      online: z.boolean(),
      status: z.number(),
      productName: z.string().nullable(),
      deviceKind: z.string().nullable(),
      lastSeen: z.string().nullable(),
    }),
  ),
});
export type AreaRegion = z.infer<typeof areaRegionSchema>;
