import { Cron, type CronOptions } from 'croner';
import { label, type Label } from '../entity-kit/label';

/**
 * Quartz-style CRON (what PowerJob users write), shared by the scheduler and the job form's
 * preview: `sec min hour day-of-month month day-of-week [year]`, exactly one of day-of-month and
 * day-of-week `?`, day-of-week numbered 1=SUN..7=SAT, `L`, `W`, `LW`, `nL`, `n#k`, `a/b` steps.
 *
 * Croner does the date arithmetic (time zones, DST, L/W/#). We check every field ourselves first,
 * so a problem names its field, and rewrite the forms croner reads differently from Quartz
 * (`5/10`, wrapping ranges such as `FRI-MON`, a lone `L` in day-of-week).
 */

export type CronField =
  'second' | 'minute' | 'hour' | 'dayOfMonth' | 'month' | 'dayOfWeek' | 'year';

export type CronProblem = {
  code: 'fields' | 'syntax' | 'questionMark' | 'never';
  field?: CronField;
  detail: string;
};

interface FieldSpec {
  name: CronField;
  min: number;
  max: number;
  /** Upper-case names → numbers (months, Quartz weekdays). */
  names?: readonly string[];
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const WEEKDAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

/** Quartz bounds; the year stops at 2099 as in Quartz. */
const FIELDS: readonly FieldSpec[] = [
  { name: 'second', min: 0, max: 59 },
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'dayOfMonth', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: MONTHS },
  { name: 'dayOfWeek', min: 1, max: 7, names: WEEKDAYS },
  { name: 'year', min: 1970, max: 2099 },
];

/** Thrown by `parseField` with the text of the problem; caught and given its field. */
class FieldError extends Error {}

function value(text: string, spec: FieldSpec): number {
  const upper = text.toUpperCase();
  const named = spec.names?.indexOf(upper) ?? -1;
  if (named >= 0) return named + spec.min;
  if (!/^\d+$/.test(text)) throw new FieldError(`'${text}' is not a number`);
  const n = Number(text);
  if (n < spec.min || n > spec.max) {
    throw new FieldError(`${n} is outside ${spec.min}-${spec.max}`);
  }
  return n;
}

/** `a-b/step` as croner reads it; a range that wraps (Quartz `22-2`, `FRI-MON`) becomes a list. */
function range(from: number, to: number, step: number, spec: FieldSpec): string {
  if (from <= to)
    return step === 1 ? (from === to ? `${from}` : `${from}-${to}`) : `${from}-${to}/${step}`;
  const values: number[] = [];
  const span = spec.max - spec.min + 1;
  for (let offset = 0; offset <= to - from + span; offset += step) {
    values.push(((from - spec.min + offset) % span) + spec.min);
  }
  return values.join(',');
}

/** One comma-separated part of a field, checked and rewritten for croner. */
function parsePart(part: string, spec: FieldSpec): string {
  const upper = part.toUpperCase();
  if (spec.name === 'dayOfMonth') {
    if (upper === 'L' || upper === 'LW') return upper;
    if (/^L-\d+$/.test(upper))
      throw new FieldError(`'${part}' (days before the last) is not supported`);
    const weekday = /^(\d+)W$/.exec(upper);
    if (weekday) return `${value(weekday[1]!, spec)}W`;
  }
  if (spec.name === 'dayOfWeek') {
    // A lone `L` in day-of-week is Saturday in Quartz (the last day of the week).
    if (upper === 'L') return '7';
    const last = /^([A-Z]+|\d+)L$/.exec(upper);
    if (last) return `${value(last[1]!, spec)}L`;
    const nth = /^([A-Z]+|\d+)#(\d+)$/.exec(upper);
    if (nth) {
      const k = Number(nth[2]);
      if (k < 1 || k > 5) throw new FieldError(`'#${nth[2]}' must be 1-5`);
      return `${value(nth[1]!, spec)}#${k}`;
    }
  }
  const slash = part.indexOf('/');
  const base = slash < 0 ? part : part.slice(0, slash);
  let step = 1;
  if (slash >= 0) {
    const stepText = part.slice(slash + 1);
    if (!/^\d+$/.test(stepText) || Number(stepText) < 1 || Number(stepText) > spec.max) {
      throw new FieldError(`step '${stepText}' must be 1-${spec.max}`);
    }
    step = Number(stepText);
  }
  if (base === '*') return step === 1 ? '*' : `*/${step}`;
  const dash = base.indexOf('-');
  if (dash > 0) {
    return range(value(base.slice(0, dash), spec), value(base.slice(dash + 1), spec), step, spec);
  }
  if (base === '') throw new FieldError(`'${part}' is incomplete`);
  // Quartz `a/b` starts at a and runs to the field's end; croner wants it written out.
  const from = value(base, spec);
  return slash < 0 ? `${from}` : range(from, spec.max, step, spec);
}

function parseField(text: string, spec: FieldSpec): string {
  if (text === '?') {
    if (spec.name !== 'dayOfMonth' && spec.name !== 'dayOfWeek') {
      throw new FieldError(`'?' is only allowed in day-of-month or day-of-week`);
    }
    return '*';
  }
  return text
    .split(',')
    .map((part) => {
      if (part === '') throw new FieldError(`empty list item in '${text}'`);
      if (part === '?') throw new FieldError(`'?' must stand alone`);
      return parsePart(part, spec);
    })
    .join(',');
}

type Parsed = { ok: true; pattern: string } | { ok: false; problem: CronProblem };

/** The croner pattern for a Quartz expression, or why there is none (the date aside). */
function parse(expression: string): Parsed {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 6 && fields.length !== 7) {
    return {
      ok: false,
      problem: {
        code: 'fields',
        detail: `expected 6 or 7 fields (sec min hour day-of-month month day-of-week [year]), got ${expression.trim() === '' ? 0 : fields.length}`,
      },
    };
  }
  const out: string[] = [];
  for (let i = 0; i < fields.length; i++) {
    const spec = FIELDS[i]!;
    try {
      out.push(parseField(fields[i]!, spec));
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      return { ok: false, problem: { code: 'syntax', field: spec.name, detail: error.message } };
    }
  }
  // Quartz has no OR of day-of-month and day-of-week: one of them must be '?'.
  const dom = fields[3]!;
  const dow = fields[5]!;
  if ((dom === '?') === (dow === '?')) {
    return {
      ok: false,
      problem: {
        code: 'questionMark',
        field: dom === '*' && dow !== '*' ? 'dayOfMonth' : 'dayOfWeek',
        detail:
          dom === '?'
            ? `day-of-month and day-of-week cannot both be '?'`
            : `one of day-of-month and day-of-week must be '?'`,
      },
    };
  }
  return { ok: true, pattern: out.join(' ') };
}

function cron(expression: string, timeZone: string): Cron {
  const parsed = parse(expression);
  if (!parsed.ok) {
    const where = parsed.problem.field ? ` (${parsed.problem.field})` : '';
    throw new Error(`invalid cron expression '${expression}'${where}: ${parsed.problem.detail}`);
  }
  const options: CronOptions = {
    timezone: timeZone,
    // One side is always '*' (from '?'), so AND is the Quartz meaning.
    domAndDow: true,
    alternativeWeekdays: true,
    mode: '6-or-7-parts',
  };
  return new Cron(parsed.pattern, options);
}

/** undefined when usable; else why (english detail; the web translates by code + field). */
export function cronProblem(expression: string): CronProblem | undefined {
  const parsed = parse(expression);
  if (!parsed.ok) return parsed.problem;
  let next: Date | undefined;
  try {
    next = nextCronTime(expression, new Date(), 'UTC');
  } catch (error) {
    // Our checks mirror croner's; should it still refuse, say so rather than fail.
    return { code: 'syntax', detail: error instanceof Error ? error.message : String(error) };
  }
  if (!next) return { code: 'never', detail: 'the expression never fires again' };
  return undefined;
}

/** The next `count` fire times strictly after `after`, in IANA `timeZone` (wall clock of that zone). Throws on an invalid expression. */
export function nextCronTimes(
  expression: string,
  after: Date,
  timeZone: string,
  count: number,
): Date[] {
  if (count <= 0) return [];
  return cron(expression, timeZone).nextRuns(count, after);
}

/** The first fire time strictly after `after`, or undefined when none (a year in the past). */
export function nextCronTime(expression: string, after: Date, timeZone: string): Date | undefined {
  return nextCronTimes(expression, after, timeZone, 1)[0];
}

/** Examples for the job form's help popover. */
export const CRON_EXAMPLES: readonly { expression: string; label: Label }[] = [
  { expression: '* * * * * ?', label: label('Every second', '每秒', '每秒') },
  { expression: '0/30 * * * * ?', label: label('Every 30 seconds', '每 30 秒', '每 30 秒') },
  { expression: '0 0 2 * * ?', label: label('Every day at 02:00', '每天 02:00', '每天 02:00') },
  {
    expression: '0 30 6 ? * MON',
    label: label('Every Monday at 06:30', '每周一 06:30', '每週一 06:30'),
  },
  {
    expression: '0 0 23 L * ?',
    label: label('Last day of every month at 23:00', '每月最后一天 23:00', '每月最後一天 23:00'),
  },
  {
    expression: '0 0 9 ? * 6#3',
    label: label(
      'Third Friday of every month at 09:00',
      '每月第三个周五 09:00',
      '每月第三個週五 09:00',
    ),
  },
];
