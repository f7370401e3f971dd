import {
  checkThingValue,
  MAX_PAYLOAD_BYTES,
  telemetryPayloadSchema,
  type ThingProperty,
  type TelemetryReading,
} from '@shuili/contract';

/** A value that passed its thing-model check, ready to store. */
export interface CheckedValue {
  key: string;
  ts: Date;
  value: number | null;
  textValue: string | null;
}

/** Why values of an uplink were not stored, counted per device (iot_ingest_stat). */
export interface ProblemCounts {
  unknownKeys: number;
  wrongType: number;
  outOfRange: number;
  badPayload: number;
  badTime: number;
}

export interface CheckResult {
  values: CheckedValue[];
  problems: ProblemCounts;
  /** The last problem as a short line a person can read on the device page. */
  lastProblem: string | null;
}

/** Readings stamped outside [from, to] are refused: a device clock far off corrupts history. */
export interface AcceptedWindow {
  from: Date;
  to: Date;
}

/** A device clock may run a little ahead; more than this is a wrong clock. */
export const MAX_FUTURE_MS = 24 * 60 * 60 * 1000;

export const noProblems = (): ProblemCounts => ({
  unknownKeys: 0,
  wrongType: 0,
  outOfRange: 0,
  badPayload: 0,
  badTime: 0,
});

export function problemTotal(problems: ProblemCounts): number {
  return (
    problems.unknownKeys +
    problems.wrongType +
    problems.outOfRange +
    problems.badPayload +
    problems.badTime
  );
}

const shown = (value: unknown) => {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 64 ? `${text.slice(0, 63)}…` : text;
};

/** Keeps the decimals the thing model keeps (binary noise such as 0.30000000000000004 goes). */
function rounded(value: number, precision: number | undefined): number {
  if (precision === undefined) return value;
  const factor = 10 ** precision;
  return Math.round(value * factor) / factor;
}

/** `{ ts?, values }` with ts absent or epoch ms, values a JSON object: zod would accept it as is. */
function isPlainReading(json: unknown): json is TelemetryReading {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return false;
  const { ts, values } = json as { ts?: unknown; values?: unknown };
  if (ts !== undefined && !(typeof ts === 'number' && Number.isSafeInteger(ts) && ts > 0))
    return false;
  // A "__proto__" key is left to zod: its record would not copy it as an own key.
  return (
    typeof values === 'object' &&
    values !== null &&
    !Array.isArray(values) &&
    !Object.hasOwn(values, '__proto__')
  );
}

/**
 * The common shapes (one reading or a short array of them, ts in ms or absent) checked by hand:
 * zod's safeParse, which copies every reading and value, cost more than the rest of the check.
 * Anything else (ISO times, wrong shapes) goes through the schema, which also words the problem.
 */
function plainReadings(json: unknown): TelemetryReading[] | undefined {
  if (!Array.isArray(json)) return isPlainReading(json) ? [json] : undefined;
  if (json.length < 1 || json.length > 100) return undefined;
  for (const reading of json) if (!isPlainReading(reading)) return undefined;
  return json as TelemetryReading[];
}

/** Parses a telemetry payload (JSON bytes) into readings, or answers why it cannot be read. */
export function parseTelemetry(
  payload: Buffer,
): { ok: true; readings: TelemetryReading[] } | { ok: false; problem: string } {
  if (payload.length > MAX_PAYLOAD_BYTES)
    return { ok: false, problem: `badPayload: ${payload.length} bytes (max ${MAX_PAYLOAD_BYTES})` };
  let json: unknown;
  try {
    json = JSON.parse(payload.toString('utf8'));
  } catch {
    return { ok: false, problem: 'badPayload: not JSON' };
  }
  const plain = plainReadings(json);
  if (plain) return { ok: true, readings: plain };
  const parsed = telemetryPayloadSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.length ? issue.path.join('.') : '(root)';
    return { ok: false, problem: `badPayload: wrong shape at ${path}` };
  }
  return { ok: true, readings: Array.isArray(parsed.data) ? parsed.data : [parsed.data] };
}

/** A reading's instant: its own ts (ms or ISO), else when the server received it. */
export function readingTime(ts: number | string | undefined, receivedAt: Date): Date {
  return ts === undefined ? receivedAt : new Date(ts);
}

/**
 * Checks readings against the product's properties: good values are answered for storing, every
 * other value is counted by its problem. Nothing is dropped without being counted.
 */
export function checkReadings(
  readings: TelemetryReading[],
  properties: ReadonlyMap<string, ThingProperty>,
  receivedAt: Date,
  window: AcceptedWindow,
): CheckResult {
  const problems = noProblems();
  const values: CheckedValue[] = [];
  let lastProblem: string | null = null;
  for (const reading of readings) {
    const ts = readingTime(reading.ts, receivedAt);
    const timeOk =
      !Number.isNaN(ts.getTime()) &&
      ts.getTime() >= window.from.getTime() &&
      ts.getTime() <= window.to.getTime();
    const given = reading.values;
    for (const key of Object.keys(given)) {
      const raw = given[key];
      if (!timeOk) {
        problems.badTime += 1;
        lastProblem = `badTime: ${key} at ${Number.isNaN(ts.getTime()) ? shown(reading.ts) : ts.toISOString()}`;
        continue;
      }
      const property = properties.get(key);
      if (!property) {
        problems.unknownKeys += 1;
        lastProblem = `unknownKey: ${shown(key)}`;
        continue;
      }
      // In-range numbers, the usual reading, skip checkThingValue's answer object (same checks).
      if (
        typeof raw === 'number' &&
        (property.type === 'number' || (property.type === 'integer' && Number.isInteger(raw))) &&
        Number.isFinite(raw) &&
        (property.min === undefined || raw >= property.min) &&
        (property.max === undefined || raw <= property.max)
      ) {
        values.push({
          key,
          ts,
          value: rounded(raw, property.precision),
          textValue: null,
        });
        continue;
      }
      const checked = checkThingValue(property, raw);
      if (!checked.ok) {
        if (checked.problem === 'wrongType') problems.wrongType += 1;
        else problems.outOfRange += 1;
        lastProblem = `${checked.problem}: ${key}=${shown(raw)}`;
        continue;
      }
      values.push({
        key,
        ts,
        value: checked.number === null ? null : rounded(checked.number, property.precision),
        textValue: checked.text,
      });
    }
  }
  return { values, problems, lastProblem };
}

/** parseTelemetry then checkReadings: what one telemetry uplink yields. */
export function checkTelemetry(
  payload: Buffer,
  properties: ReadonlyMap<string, ThingProperty>,
  receivedAt: Date,
  window: AcceptedWindow,
): CheckResult {
  const parsed = parseTelemetry(payload);
  if (!parsed.ok)
    return {
      values: [],
      problems: { ...noProblems(), badPayload: 1 },
      lastProblem: parsed.problem,
    };
  return checkReadings(parsed.readings, properties, receivedAt, window);
}
