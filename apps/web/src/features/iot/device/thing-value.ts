import { checkThingValue, type Label, type ThingParam } from '@shuili/contract';

/** A value as a device reported it: numbers (booleans and enums as numbers) or text. */
export type ThingValue = number | string | boolean | null;

/**
 * The text of a value as the thing model describes it: numbers with the declared decimals and
 * unit, enums by their label, booleans as the given yes/no words. Undefined: no value yet.
 */
/** The reader's words for values: option labels, yes and no, units. */
export interface ValueWords {
  label: (label: Label) => string;
  yes: string;
  no: string;
  /** A unit in the reader's language (time units are words: min is 分钟). */
  unit?: (unit: string) => string;
}

export function formatThingValue(
  param: ThingParam,
  value: ThingValue | undefined,
  words: ValueWords,
): string | undefined {
  if (value === undefined || value === null) return undefined;
  switch (param.type) {
    case 'boolean':
      return value === true || value === 1 ? words.yes : words.no;
    case 'enum': {
      const option = param.options?.find((candidate) => candidate.value === Number(value));
      return option ? words.label(option.label) : String(value);
    }
    case 'string':
      return String(value);
    default: {
      const number = Number(value);
      if (!Number.isFinite(number)) return String(value);
      const text = param.precision === undefined ? String(number) : number.toFixed(param.precision);
      return param.unit ? `${text} ${words.unit?.(param.unit) ?? param.unit}` : text;
    }
  }
}

/** One reading of one key, as live values keep it. */
export interface Reading {
  key: string;
  value: ThingValue;
  /** Milliseconds since the epoch. */
  ts: number;
}

function toMillis(ts: unknown, fallback: number): number {
  if (typeof ts === 'number' && Number.isFinite(ts)) return ts;
  if (typeof ts === 'string') {
    const parsed = Date.parse(ts);
    if (Number.isFinite(parsed)) return parsed;
  }
  return fallback;
}

/**
 * The readings of a telemetry payload (one reading or an array of them) that the thing model
 * accepts: what ingestion stores is what the page shows; the rest is counted as problems there.
 */
export function readingsOf(
  payload: unknown,
  properties: readonly ThingParam[],
  receivedAt: number,
): Reading[] {
  const batch = Array.isArray(payload) ? payload : [payload];
  const readings: Reading[] = [];
  for (const item of batch) {
    if (!item || typeof item !== 'object') continue;
    const { ts, values } = item as { ts?: unknown; values?: unknown };
    if (!values || typeof values !== 'object') continue;
    const at = toMillis(ts, receivedAt);
    for (const [key, raw] of Object.entries(values as Record<string, unknown>)) {
      const param = properties.find((candidate) => candidate.key === key);
      if (!param) continue;
      const checked = checkThingValue(param, raw);
      if (!checked.ok) continue;
      readings.push({ key, value: checked.text ?? checked.number, ts: at });
    }
  }
  return readings;
}

/** Keeps the newest reading per key (a late batch must not overwrite fresher values). */
export function mergeReadings(
  current: ReadonlyMap<string, Reading>,
  readings: readonly Reading[],
): Map<string, Reading> {
  const next = new Map(current);
  for (const reading of readings) {
    const known = next.get(reading.key);
    if (!known || known.ts <= reading.ts) next.set(reading.key, reading);
  }
  return next;
}
