import { cronProblem, TIMED_EXPRESSION_TYPES, type TimeExpressionType } from '@shuili/contract';
import type { Sql } from '../../db/database';
import type { FieldProblem } from '../../http/app-error';
import { nextFireAfter, type Recurrence } from '../scheduler/recurrence';
import { cancel, scheduleOnce, scheduleRecurring } from '../scheduler/scheduler.service';

/**
 * A job's or workflow's time expression on the scheduler core: CRON is a cron recurrence, fixed
 * rate an interval, fixed delay a one-off trigger set again each time an instance ends (the
 * delay runs from the end), API and WORKFLOW no trigger at all.
 */

/** Occurrences missed by up to this long still fire (Quartz's misfire threshold). */
export const JOB_CATCH_UP_SECONDS = 10;
/** The shortest fixed rate or delay: a second, as the shortest CRON step. */
export const MIN_FIXED_MS = 1000;
const MAX_FIXED_MS = 366 * 86_400_000;

/** Why a time expression cannot be used (a problem on `timeExpression`), or undefined. */
export function timeExpressionProblem(
  type: TimeExpressionType,
  expression: string | null | undefined,
): FieldProblem | undefined {
  if (!TIMED_EXPRESSION_TYPES.includes(type)) return undefined;
  const text = expression?.trim() ?? '';
  if (text === '')
    return {
      field: 'timeExpression',
      key: type === 'CRON' ? 'jobs.cronRequired' : 'jobs.fixedRequired',
    };
  if (type === 'CRON') {
    const problem = cronProblem(text);
    if (!problem) return undefined;
    return {
      field: 'timeExpression',
      key: problem.code === 'never' ? 'jobs.cronNever' : 'jobs.cronInvalid',
      params: { detail: problem.detail },
    };
  }
  const ms = Number(text);
  if (!/^\d+$/.test(text) || ms < MIN_FIXED_MS || ms > MAX_FIXED_MS)
    return {
      field: 'timeExpression',
      key: 'jobs.fixedInvalid',
      params: { min: MIN_FIXED_MS, max: MAX_FIXED_MS },
    };
  return undefined;
}

/** The recurrence of a CRON or fixed-rate expression (checked before). */
export function recurrenceOf(type: TimeExpressionType, expression: string): Recurrence | undefined {
  if (type === 'CRON')
    return { type: 'cron', expression: expression.trim(), catchUpSeconds: JOB_CATCH_UP_SECONDS };
  if (type === 'FIXED_RATE')
    return {
      type: 'interval',
      seconds: Number(expression) / 1000,
      catchUpSeconds: JOB_CATCH_UP_SECONDS,
    };
  return undefined;
}

/** The schedule as the lists show it ("CRON 0 0 2 * * ?", "FIXED_RATE 5000 ms", "API"). */
export function scheduleInfoOf(type: TimeExpressionType, expression: string | null | undefined) {
  if (!TIMED_EXPRESSION_TYPES.includes(type)) return type;
  const text = expression?.trim() ?? '';
  return type === 'CRON' ? `CRON ${text}` : `${type} ${text} ms`;
}

/** The next `count` trigger times of a valid expression (none for API and WORKFLOW). */
export function nextTriggerTimes(
  type: TimeExpressionType,
  expression: string,
  timeZone: string,
  count: number,
  after = new Date(),
): Date[] {
  if (type === 'FIXED_DELAY') {
    // From now for the first; each later one counts from the end of the one before it.
    return [new Date(after.getTime() + Number(expression))];
  }
  const rule = recurrenceOf(type, expression);
  if (!rule) return [];
  const times: Date[] = [];
  let from = after;
  for (let index = 0; index < count; index += 1) {
    try {
      from = nextFireAfter(rule, from, timeZone);
    } catch {
      break; // a CRON expression with no later year
    }
    times.push(from);
  }
  return times;
}

/**
 * Keeps the trigger `key` of a job or workflow in step with its schedule, in the caller's
 * transaction: an enabled timed one has its trigger (replaced, so an edited expression takes
 * effect at once), anything else has none.
 */
export async function syncTimedTrigger(
  sql: Sql,
  input: {
    tenantId: string;
    key: string;
    kind: string;
    type: TimeExpressionType;
    expression: string | null;
    enabled: boolean;
    payload: Record<string, unknown>;
  },
): Promise<void> {
  const timed = input.enabled && TIMED_EXPRESSION_TYPES.includes(input.type);
  if (!timed || !input.expression) {
    await cancel(sql, input.key);
    return;
  }
  // A fire processor that throws is tried again once; the instance it makes has its own retries.
  const common = {
    tenantId: input.tenantId,
    kind: input.kind,
    key: input.key,
    payload: input.payload,
    maxAttempts: 2,
  };
  if (input.type === 'FIXED_DELAY') {
    await scheduleFixedDelay(sql, { ...common, delayMs: Number(input.expression) });
    return;
  }
  await scheduleRecurring(sql, {
    ...common,
    recurrence: recurrenceOf(input.type, input.expression)!,
  });
}

/**
 * A fixed-delay job's or workflow's next firing, the delay from now: set when it is enabled and
 * each time one of its scheduled runs ends (the delay counts from the end).
 */
export async function scheduleFixedDelay(
  sql: Sql,
  next: {
    tenantId: string;
    kind: string;
    key: string;
    payload: Record<string, unknown>;
    delayMs: number;
  },
): Promise<void> {
  await scheduleOnce(sql, {
    tenantId: next.tenantId,
    kind: next.kind,
    key: next.key,
    dueAt: new Date(Date.now() + next.delayMs),
    payload: next.payload,
    // A fire processor that throws is tried again once; what it makes has its own retries.
    maxAttempts: 2,
  });
}
