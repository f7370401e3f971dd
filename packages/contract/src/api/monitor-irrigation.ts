import { z } from 'zod';

/** The irrigation area's calls besides its entities' generic ones (/api/monitor/irrigation). */
export const IRRIGATION_CALLS = {
  batchValveControl: '/api/monitor/irrigation/batchValveControl',
  waterDelivered: '/api/monitor/irrigation/queryWaterDelivered',
  scheduleRuns: '/api/monitor/irrigation/queryScheduleRun',
  stopRotation: '/api/monitor/irrigation/stopRotation',
} as const;

const invalid = { error: 'validation.invalid' };
const id = z
  .union([z.string(), z.number().int().nonnegative()], invalid)
  .transform((value) => String(value))
  .pipe(z.string().regex(/^\d{1,18}$/, invalid));
/** A calendar day YYYY-MM-DD that exists (2026-02-30 does not). */
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, invalid)
  .refine((text) => {
    const date = new Date(`${text}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
  }, invalid);

/**
 * POST batchValveControl: every valve channel of a zone, or of a valve group (with a zone too:
 * the group's channels in that zone), at once.
 */
export const batchValveControlSchema = z
  .object({
    zoneId: id.optional(),
    groupId: id.optional(),
    action: z.enum(['open', 'close'], invalid),
    /** Required to open (the server closes the channels after it). */
    durationMinutes: z.coerce.number().int(invalid).min(1).max(1440).optional(),
  })
  .superRefine((value, ctx) => {
    if (!value.zoneId && !value.groupId)
      ctx.addIssue({ code: 'custom', path: ['groupId'], message: 'monitor.batchTarget' });
    if (value.action === 'open' && value.durationMinutes === undefined)
      ctx.addIssue({ code: 'custom', path: ['durationMinutes'], message: 'validation.required' });
  });
export type BatchValveControlInput = z.input<typeof batchValveControlSchema>;

/** One channel's command of a batch: recorded (sent, or waiting for its device) or refused. */
export const batchChannelResultSchema = z.object({
  channel: z.number(),
  accepted: z.boolean(),
  commandId: z.string().nullable(),
  status: z.string().nullable(),
  /** Why it was refused, in the caller's language. */
  message: z.string().nullable(),
});

export const batchDeviceResultSchema = z.object({
  deviceId: z.string(),
  deviceNo: z.string(),
  deviceName: z.string(),
  accepted: z.number(),
  refused: z.number(),
  channels: z.array(batchChannelResultSchema),
});
export type BatchDeviceResult = z.infer<typeof batchDeviceResultSchema>;

export const batchValveControlResultSchema = z.object({
  accepted: z.number(),
  refused: z.number(),
  devices: z.array(batchDeviceResultSchema),
});
export type BatchValveControlResult = z.infer<typeof batchValveControlResultSchema>;

/** GET queryWaterDelivered: per zone per day, week or month, and valve open hours. */
export const waterDeliveredQuerySchema = z.object({
  /** First and last day (inclusive) of the tenant's calendar, YYYY-MM-DD. */
  start: day,
  end: day,
  bucket: z.enum(['day', 'week', 'month'], invalid).default('day'),
  zoneId: id.optional(),
});
export type WaterDeliveredQuery = z.input<typeof waterDeliveredQuerySchema>;

export const waterDeliveredSchema = z.object({
  /** m³ per bucket (its first day) and zone (null: devices of no zone). */
  volumes: z.array(
    z.object({
      bucket: z.string(),
      zoneId: z.string().nullable(),
      zoneName: z.string().nullable(),
      volume: z.number(),
    }),
  ),
  /** Hours each valve channel stood open in the range (from its valve state readings). */
  openHours: z.array(
    z.object({
      deviceId: z.string(),
      deviceNo: z.string(),
      deviceName: z.string(),
      zoneId: z.string().nullable(),
      channel: z.number(),
      hours: z.number(),
    }),
  ),
  total: z.number(),
});
export type WaterDelivered = z.infer<typeof waterDeliveredSchema>;

/** GET queryScheduleRun: the newest runs of a rotation schedule or soil rule and what they decided. */
export const scheduleRunQuerySchema = z.object({
  kind: z.enum(['rotation', 'soilRule'], invalid),
  id: id.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type ScheduleRunQuery = z.input<typeof scheduleRunQuerySchema>;

export const scheduleRunSchema = z.object({
  id: z.string(),
  /** The schedule or rule it belongs to. */
  ownerId: z.string(),
  ownerName: z.string().nullable(),
  /** start / step (rotation) or evaluate (soil rule). */
  what: z.enum(['start', 'step', 'evaluate']),
  fireAt: z.string(),
  finishedAt: z.string().nullable(),
  state: z.string(),
  node: z.string(),
  attempt: z.number(),
  decision: z.string().nullable(),
  /** What it decided and why, e.g. "skipped: 12.4 mm rain in 24 h at WEATHER-8-01". */
  reason: z.string().nullable(),
  result: z.record(z.string(), z.unknown()).nullable(),
  error: z.string().nullable(),
});
export type ScheduleRun = z.infer<typeof scheduleRunSchema>;

/** POST stopRotation: ends a rotation under way (its remaining steps, its holds). */
export const stopRotationSchema = z.object({ scheduleId: id });
