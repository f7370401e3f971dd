import type { z } from 'zod';

/** One field of an object schema: its name, whether a request must carry it, and its schema. */
export interface SchemaField {
  name: string;
  required: boolean;
  schema: z.ZodType;
}

interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, string | number>;
  values?: unknown[];
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Wrappers whose inner schema says what a valid value looks like. */
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly']);

/** The object schema under wrappers and pipes (a preprocessed object is still an object). */
function objectOf(schema: z.ZodType | undefined): Def | undefined {
  let def = schema ? defOf(schema) : undefined;
  while (def && (WRAPPERS.has(def.type) || def.type === 'pipe'))
    def = defOf((def.innerType ?? def.in)!);
  return def?.type === 'object' ? def : undefined;
}

/** The fields of an object schema (empty for none or for a schema that is not an object). */
export function fieldsOf(schema: unknown): SchemaField[] {
  const def = objectOf(schema as z.ZodType | undefined);
  if (!def?.shape) return [];
  return Object.entries(def.shape).map(([name, field]) => ({
    name,
    required: !(field as z.ZodType).safeParse(undefined).success,
    schema: field,
  }));
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Text values to try for a string field: dates for date-like names (a range must cover the fixtures' readings). */
function textCandidates(name: string): string[] {
  // A day back to an hour ahead: covers the fixtures' readings, within every range limit.
  const past = new Date(Date.now() - DAY).toISOString();
  const future = new Date(Date.now() + HOUR).toISOString();
  const dates = /start|from/i.test(name) ? [past, future] : [future, past];
  // Calendar days (YYYY-MM-DD) for calls that take days rather than instants.
  const days = dates.map((date) => date.slice(0, 10));
  return [
    ...(/time|date|start|end|from|to$|at$/i.test(name) ? [...dates, ...days] : []),
    `probe${name}`,
    'probe',
    '1',
    'ROLE_PROBE',
    'probe@example.com',
    '13800138000',
    ...dates,
    'a',
    '{}',
  ];
}

/**
 * A valid value for a schema, or undefined when none is found: lists are empty when they may
 * be, unions take their first option that yields one, objects their required fields. Lazy, so
 * a deep schema (a thing model) costs a few parses, not a tree of them.
 */
export function sampleValue(schema: z.ZodType, name: string, depth = 0): unknown {
  const valid = (value: unknown) => schema.safeParse(value).success;
  const def = defOf(schema);
  if (depth > 6) return undefined;
  let found: unknown;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
      found = sampleValue(def.innerType!, name, depth + 1);
      break;
    case 'pipe':
      found = sampleValue(def.in!, name, depth + 1);
      break;
    case 'literal':
      found = def.values?.find(valid);
      break;
    case 'enum':
      found = Object.values(def.entries ?? {}).find(valid);
      break;
    case 'boolean':
      found = [true, 'true'].find(valid);
      break;
    case 'number':
    case 'int':
    case 'bigint':
      found = [1, 0, 60, '1'].find(valid);
      break;
    case 'date':
      found = new Date();
      break;
    case 'array': {
      if (valid([])) return [];
      const element = sampleValue(def.element!, name, depth + 1);
      found = element === undefined ? undefined : [element];
      break;
    }
    case 'union':
      for (const option of def.options ?? []) {
        const value = sampleValue(option, name, depth + 1);
        if (value !== undefined && valid(value)) return value;
      }
      return undefined;
    case 'object':
      found = sampleObject(schema, depth + 1);
      break;
    case 'record':
      found = {};
      break;
    default:
      found = textCandidates(name).find(valid);
  }
  if (found !== undefined && valid(found)) return found;
  // A string held in a wrapper or pipe with checks of its own: try the texts directly.
  return textCandidates(name).find(valid);
}

/** An object with every required field filled with a valid sample (optional ones left out). */
export function sampleObject(schema: z.ZodType, depth = 0): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const field of fieldsOf(schema))
    if (field.required) result[field.name] = sampleValue(field.schema, field.name, depth);
  return result;
}
