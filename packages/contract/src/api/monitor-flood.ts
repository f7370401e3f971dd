import { z } from 'zod';
import { ALARM_LEVELS } from '../entities/iot/alarm-rule.entity';
import { RAIN_WINDOWS, rainWindowKey, type RainThresholds } from '../areas/flood/rain-warning';

/** The flood area's calls (server routes, web client, grants). */
export const FLOOD_CALLS = {
  status: '/api/monitor/flood/queryFloodStatus',
  thresholds: '/api/monitor/flood/queryFloodThreshold',
  updateThresholds: '/api/monitor/flood/updateFloodThreshold',
} as const;

/** Most stations one status call answers (a page of the monitor's cards). */
export const FLOOD_STATUS_MAX_DEVICES = 100;

const invalid = { error: 'validation.invalid' };
const id = z
  .union([z.string(), z.number().int().nonnegative()], invalid)
  .transform((value) => String(value))
  .pipe(z.string().regex(/^\d{1,18}$/, invalid));

const windowsShape = <T extends z.ZodType>(item: T) =>
  z.object(
    Object.fromEntries(RAIN_WINDOWS.map((hours) => [rainWindowKey(hours), item])) as Record<
      `h${(typeof RAIN_WINDOWS)[number]}`,
      T
    >,
  );

/** mm per window of a level; null: the level ignores that window (checked further by the server). */
const levelThresholds = windowsShape(z.number({ error: 'validation.invalid' }).nullable());
export const rainThresholdsSchema = z.object(
  Object.fromEntries(ALARM_LEVELS.map((level) => [level, levelThresholds])) as Record<
    (typeof ALARM_LEVELS)[number],
    typeof levelThresholds
  >,
) as unknown as z.ZodType<RainThresholds>;

/** GET queryFloodStatus: stations' rolling rain, warning level and water level now. */
export const floodStatusQuerySchema = z.object({
  deviceIds: z
    .string()
    .max(FLOOD_STATUS_MAX_DEVICES * 19)
    .refine((text) => {
      const ids = text.split(',');
      return ids.length <= FLOOD_STATUS_MAX_DEVICES && ids.every((one) => /^\d{1,18}$/.test(one));
    }, invalid),
});
export type FloodStatusQuery = z.infer<typeof floodStatusQuerySchema>;

export const floodStationStatusSchema = z.object({
  deviceId: z.string(),
  /** Which readings the sums come from (the station's `rainSource` setting). */
  source: z.enum(['interval', 'counter']),
  /** mm in the 1, 3, 6, 12 and 24 h up to `at`. */
  sums: windowsShape(z.number()),
  at: z.string(),
  /** The thresholds judged by: the station's own, else the tenant's default. */
  thresholds: rainThresholdsSchema,
  ownThresholds: z.boolean(),
  /** The highest rainstorm level reached now, and the window furthest past its threshold. */
  warning: z
    .object({
      level: z.enum(ALARM_LEVELS),
      window: z.number(),
      value: z.number(),
      threshold: z.number(),
    })
    .nullable(),
  waterLevel: z.number().nullable(),
  waterLevelAt: z.string().nullable(),
  warningLevel: z.number(),
  guaranteeLevel: z.number(),
  /** The water level against the two lines: above warning, above guarantee, or below both. */
  levelState: z.enum(['normal', 'warning', 'guarantee', 'unknown']),
});
export type FloodStationStatus = z.infer<typeof floodStationStatusSchema>;

/** GET queryFloodThreshold: a station's thresholds, or (no deviceId) the tenant's default. */
export const floodThresholdQuerySchema = z.object({ deviceId: id.optional() });
export type FloodThresholdQuery = z.infer<typeof floodThresholdQuerySchema>;

export const floodThresholdSchema = z.object({
  deviceId: z.string().nullable(),
  thresholds: rainThresholdsSchema,
  /** Whether these are the station's (or tenant's) own, not inherited. */
  own: z.boolean(),
  /** What the station falls back to: the tenant's default (or, for that, the national signals). */
  inherited: rainThresholdsSchema,
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
});
export type FloodThreshold = z.infer<typeof floodThresholdSchema>;

/**
 * POST updateFloodThreshold: a station's thresholds, or (deviceId null or absent) the tenant's
 * default; `thresholds: null` removes them (back to the default, or the national signals).
 */
export const updateFloodThresholdSchema = z.object({
  deviceId: id.nullable().optional(),
  thresholds: rainThresholdsSchema.nullable(),
});
export type UpdateFloodThresholdInput = z.infer<typeof updateFloodThresholdSchema>;
