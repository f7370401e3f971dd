import { z } from 'zod';
import type { Label } from '../entity-kit/label';

/**
 * A product's thing model: what its devices measure (properties), report (events) and accept
 * (commands). It is data, stored with the product; ingestion validates telemetry against it and
 * every monitoring screen is drawn from it (DESIGN §3, last paragraph).
 */

/** Keys of properties, events, commands and parameters: they appear in JSON payloads. */
export const THING_KEY_PATTERN = /^[a-z][A-Za-z0-9_]{0,63}$/;

export const THING_VALUE_TYPES = ['number', 'integer', 'boolean', 'enum', 'string'] as const;
export type ThingValueType = (typeof THING_VALUE_TYPES)[number];

const labelSchema = z.object({
  en: z.string().trim().min(1).max(64),
  zh: z.string().trim().min(1).max(64),
  tw: z.string().trim().min(1).max(64),
});

const keySchema = z.string().regex(THING_KEY_PATTERN, { error: 'validation.thingKey' });

const enumOptionSchema = z.object({ value: z.number().int(), label: labelSchema });

/** One value a device reports or a command takes. */
export const thingParamSchema = z
  .object({
    key: keySchema,
    name: labelSchema,
    type: z.enum(THING_VALUE_TYPES),
    /** Unit as written in Chinese water works: m, mm, m³/h, MPa, %, mS/cm, °C ... */
    unit: z.string().max(16).optional(),
    min: z.number().optional(),
    max: z.number().optional(),
    /** Decimal places shown (and kept) for numbers. */
    precision: z.number().int().min(0).max(6).optional(),
    /** The factor (catalogue of measured quantities) this value is an instance of. */
    factor: z.string().max(64).optional(),
    /** Labels of the values of an enum (valve state 0 closed, 1 open ...). */
    options: z.array(enumOptionSchema).max(32).optional(),
    /**
     * The longest a string may be (characters): 1024 unless said (an LED program's content is a
     * document of its own, sent as one command parameter).
     */
    maxLength: z.number().int().min(1).max(60_000).optional(),
  })
  .refine((param) => param.min === undefined || param.max === undefined || param.min <= param.max, {
    error: 'validation.range',
    path: ['max'],
  })
  .refine((param) => param.type !== 'enum' || (param.options?.length ?? 0) > 0, {
    error: 'validation.required',
    path: ['options'],
  });

export const thingPropertySchema = thingParamSchema.and(
  z.object({
    /** r: measured only; rw: can also be set from the console (a setProperty command). */
    access: z.enum(['r', 'rw']),
  }),
);

export const thingEventSchema = z.object({
  key: keySchema,
  name: labelSchema,
  level: z.enum(['info', 'warning', 'fault']),
  params: z.array(thingParamSchema).max(32).default([]),
});

export const thingCommandSchema = z.object({
  key: keySchema,
  name: labelSchema,
  params: z.array(thingParamSchema).max(32).default([]),
  /**
   * The live value this command changes, so the device page offers it beside that value's tile:
   * a property key where `{param}` stands for the value of that integer parameter
   * (`valve{channel}State`: openValve with channel 2 sits beside valve2State). See tile-actions.ts.
   */
  property: z.string().max(80).optional(),
  /** How long the device has to acknowledge once the command is delivered. */
  timeoutSeconds: z.number().int().min(1).max(3600).default(30),
});

function uniqueKeys(items: { key: string }[]): boolean {
  return new Set(items.map((item) => item.key)).size === items.length;
}

/** How often a device reports when its product does not say (a typical field RTU's period). */
export const DEFAULT_REPORT_INTERVAL_SECONDS = 300;

export const thingModelSchema = z.object({
  /**
   * How often the product's devices report their values: a value older than this is stale (the
   * device page greys it). Absent: DEFAULT_REPORT_INTERVAL_SECONDS.
   */
  reportIntervalSeconds: z.number().int().min(1).max(86_400).optional(),
  properties: z
    .array(thingPropertySchema)
    .max(256)
    .refine(uniqueKeys, { error: 'validation.duplicateKey' }),
  events: z
    .array(thingEventSchema)
    .max(64)
    .refine(uniqueKeys, { error: 'validation.duplicateKey' }),
  commands: z
    .array(thingCommandSchema)
    .max(64)
    .refine(uniqueKeys, { error: 'validation.duplicateKey' }),
});

export type ThingParam = z.infer<typeof thingParamSchema>;
export type ThingProperty = z.infer<typeof thingPropertySchema>;
export type ThingEvent = z.infer<typeof thingEventSchema>;
export type ThingCommand = z.infer<typeof thingCommandSchema>;
export type ThingModel = z.infer<typeof thingModelSchema>;

/** The product's reporting interval in seconds, its default when it declares none. */
export function reportIntervalOf(model: Pick<ThingModel, 'reportIntervalSeconds'>): number {
  return model.reportIntervalSeconds ?? DEFAULT_REPORT_INTERVAL_SECONDS;
}

export const EMPTY_THING_MODEL: ThingModel = { properties: [], events: [], commands: [] };

/** The built-in command every product with a writable property accepts. */
export const SET_PROPERTY_COMMAND = 'setProperty';

/** Why a reported value was not stored (counted per device, visible on its page). */
export type ValueProblem = 'unknownKey' | 'wrongType' | 'outOfRange';

/**
 * Checks one reported value against its parameter: answers the number to store (booleans as
 * 0/1, enums as their value) or the string of a string parameter, else the problem.
 */
export function checkThingValue(
  param: ThingParam,
  value: unknown,
): { ok: true; number: number | null; text: string | null } | { ok: false; problem: ValueProblem } {
  switch (param.type) {
    case 'boolean':
      if (typeof value === 'boolean') return { ok: true, number: value ? 1 : 0, text: null };
      if (value === 0 || value === 1) return { ok: true, number: value, text: null };
      return { ok: false, problem: 'wrongType' };
    case 'string':
      if (typeof value !== 'string' || value.length > (param.maxLength ?? 1024))
        return { ok: false, problem: 'wrongType' };
      return { ok: true, number: null, text: value };
    case 'enum':
      if (typeof value !== 'number' || !Number.isInteger(value))
        return { ok: false, problem: 'wrongType' };
      if (!param.options?.some((option) => option.value === value))
        return { ok: false, problem: 'outOfRange' };
      return { ok: true, number: value, text: null };
    case 'integer':
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value))
        return { ok: false, problem: 'wrongType' };
      if (param.type === 'integer' && !Number.isInteger(value))
        return { ok: false, problem: 'wrongType' };
      if (
        (param.min !== undefined && value < param.min) ||
        (param.max !== undefined && value > param.max)
      )
        return { ok: false, problem: 'outOfRange' };
      return { ok: true, number: value, text: null };
    }
  }
}

/** A label in the current language (the console's lang codes are the Label's keys). */
export type ThingLabel = Label;
