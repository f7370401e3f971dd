import { z } from 'zod';
import { instantOf } from './iot-telemetry';

/** The fertigation calls besides the recipes' and programs' generic ones. */
export const FERTIGATION_CALLS = {
  start: '/api/monitor/fertigation/startProgram',
  stop: '/api/monitor/fertigation/stopProgram',
  runs: '/api/monitor/fertigation/queryFertigationRun',
  fertilizerUse: '/api/monitor/fertigation/queryFertilizerUse',
} as const;

const invalid = { error: 'validation.invalid' };
const id = z
  .union([z.string(), z.number().int().nonnegative()], invalid)
  .transform((value) => String(value))
  .pipe(z.string().regex(/^\d{1,18}$/, invalid));
const instant = z
  .string()
  .max(40)
  .refine((text) => !Number.isNaN(instantOf(text).getTime()), invalid);

/** POST startProgram / stopProgram. */
export const fertigationProgramIdSchema = z.object({ programId: id });

export const FERTIGATION_RUN_STATUSES = ['running', 'succeeded', 'failed', 'stopped'] as const;
export type FertigationRunStatus = (typeof FERTIGATION_RUN_STATUSES)[number];

/** Where a running program is (from its steps and the program's minutes). */
export const FERTIGATION_PHASES = [
  'recipe',
  'starting',
  'waterBefore',
  'fertilizer',
  'waterAfter',
  'ended',
] as const;
export type FertigationPhase = (typeof FERTIGATION_PHASES)[number];

/** GET queryFertigationRun: the run history, newest first. */
export const fertigationRunQuerySchema = z.object({
  deviceId: id.optional(),
  programId: id.optional(),
  status: z.enum(FERTIGATION_RUN_STATUSES).optional(),
  currentPage: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
});
export type FertigationRunQuery = z.infer<typeof fertigationRunQuerySchema>;

/** One command a run sent, with its outcome as the operation record has it now. */
export const fertigationStepSchema = z.object({
  step: z.number(),
  name: z.string(),
  params: z.record(z.string(), z.unknown()),
  at: z.string(),
  commandId: z.string().nullable(),
  status: z.string().nullable(),
  result: z.string().nullable(),
  ackedAt: z.string().nullable(),
});
export type FertigationStep = z.infer<typeof fertigationStepSchema>;

export const fertigationRunSchema = z.object({
  id: z.string(),
  deviceId: z.string(),
  deviceNo: z.string().nullable(),
  deviceName: z.string().nullable(),
  programId: z.string().nullable(),
  programName: z.string(),
  groupNo: z.number(),
  waterBeforeMinutes: z.number(),
  fertilizerMinutes: z.number(),
  waterAfterMinutes: z.number(),
  recipeName: z.string(),
  targetEc: z.number(),
  targetPh: z.number(),
  status: z.enum(FERTIGATION_RUN_STATUSES),
  phase: z.enum(FERTIGATION_PHASES),
  /** Why it failed or stopped, in the reader's language. */
  reason: z.string().nullable(),
  /** The reason's message key (monitor.fertigation.*), for screens that style by cause. */
  reasonKey: z.string().nullable(),
  steps: z.array(fertigationStepSchema),
  startedBy: z.string(),
  startedAt: z.string(),
  programStartedAt: z.string().nullable(),
  endsAt: z.string().nullable(),
  endedAt: z.string().nullable(),
});
export type FertigationRun = z.infer<typeof fertigationRunSchema>;

export const FERTILIZER_USE_BUCKETS = ['hour', 'day', 'month'] as const;

/** GET queryFertilizerUse: litres drawn per fertilizer channel and period. */
export const fertilizerUseQuerySchema = z.object({
  deviceId: id,
  start: instant,
  end: instant,
  bucket: z.enum(FERTILIZER_USE_BUCKETS).default('day'),
});
export type FertilizerUseQuery = z.infer<typeof fertilizerUseQuerySchema>;

export const fertilizerUseSchema = z.object({
  timeZone: z.string(),
  /** The channels (thing-model keys of the suction flows, factor channelFlow) in model order. */
  channels: z.array(z.object({ key: z.string(), name: z.record(z.string(), z.string()) })),
  list: z.array(z.object({ bucket: z.string(), key: z.string(), liters: z.number() })),
  /** Litres per channel key over the whole range. */
  totals: z.record(z.string(), z.number()),
});
export type FertilizerUse = z.infer<typeof fertilizerUseSchema>;
