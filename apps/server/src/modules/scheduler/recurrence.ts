import { cronProblem, nextCronTime } from '@shuili/contract';

/**
 * When a recurring trigger fires next, in a tenant's time zone (IANA name). Pure functions: the
 * scheduler stores the rule on the trigger row (jsonb) and computes the next fire time each time
 * an occurrence ends, so a schedule survives restarts and follows the tenant's clock (a 06:00
 * rotation stays at 06:00 local across a DST change).
 *
 * `catchUpSeconds` (interval and cron rules; Quartz's misfire threshold): an occurrence missed by
 * at most this long still fires, at once, so a node busy for a moment loses no occurrence of a
 * secondly job; older ones are skipped, never replayed in a burst. Default 0: skip what is missed.
 */
export type Recurrence =
  /** Every `seconds` after the previous fire time (missed ones are skipped, not replayed). */
  | { type: 'interval'; seconds: number; catchUpSeconds?: number }
  /** A Quartz-style CRON expression (6 or 7 fields; packages/contract jobs/cron.ts). */
  | { type: 'cron'; expression: string; catchUpSeconds?: number }
  /**
   * At `at` (HH:mm, local) on the days given (ISO weekdays, 1 = Monday ... 7 = Sunday; absent
   * or empty: every day).
   */
  | { type: 'daily'; at: string; daysOfWeek?: readonly number[] };

const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Why a rule cannot be used, or undefined when it can. */
export function recurrenceProblem(rule: Recurrence): string | undefined {
  if (rule.type === 'cron') return cronProblem(rule.expression)?.detail;
  if (rule.type === 'interval')
    return Number.isFinite(rule.seconds) && rule.seconds >= 1 ? undefined : 'interval below 1 s';
  if (!HH_MM.test(rule.at)) return `time ${rule.at} is not HH:mm`;
  if ((rule.daysOfWeek ?? []).some((day) => !Number.isInteger(day) || day < 1 || day > 7))
    return 'days of week are 1 (Monday) to 7 (Sunday)';
  return undefined;
}

interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

/** The wall clock of a zone at an instant. */
export function wallTimeOf(at: Date, timeZone: string): WallTime {
  const parts: Record<string, number> = {};
  for (const part of formatterOf(timeZone).formatToParts(at))
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    // Some engines print midnight as 24 even with h23.
    hour: parts.hour === 24 ? 0 : parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

/** Offset of a zone from UTC at an instant, in milliseconds. */
function offsetMs(at: Date, timeZone: string): number {
  const wall = wallTimeOf(at, timeZone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return asUtc - Math.floor(at.getTime() / 1000) * 1000;
}

/**
 * The instant a zone's clock shows a wall time. A time skipped by a DST change (02:30 on the
 * spring-forward night) answers the instant just after the gap; a repeated one, the first.
 */
export function instantOf(wall: Omit<WallTime, 'second'>, timeZone: string): Date {
  const guess = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  const shows = (at: number) => {
    const seen = wallTimeOf(new Date(at), timeZone);
    return seen.day === wall.day && seen.hour === wall.hour && seen.minute === wall.minute;
  };
  const first = guess - offsetMs(new Date(guess), timeZone);
  const second = guess - offsetMs(new Date(first), timeZone);
  if (shows(second)) return new Date(second);
  if (shows(first)) return new Date(first);
  // In a gap: the wall time moved on by the gap's length (the later candidate).
  return new Date(Math.max(first, second));
}

/** ISO weekday (1 = Monday ... 7 = Sunday) of a calendar date. */
function isoWeekday(year: number, month: number, day: number): number {
  const weekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  return weekday === 0 ? 7 : weekday;
}

/** The first fire time of a rule strictly after `after`, on the clock of `timeZone`. */
export function nextFireAfter(rule: Recurrence, after: Date, timeZone: string): Date {
  if (rule.type === 'interval') return new Date(after.getTime() + rule.seconds * 1000);
  if (rule.type === 'cron') {
    const next = nextCronTime(rule.expression, after, timeZone);
    if (!next) throw new NoNextFireTime(rule.expression);
    return next;
  }
  const [hour, minute] = rule.at.split(':').map(Number) as [number, number];
  const days = rule.daysOfWeek?.length ? new Set(rule.daysOfWeek) : undefined;
  const today = wallTimeOf(after, timeZone);
  // Eight days ahead always meet one of the allowed weekdays (a DST gap moves a time by an hour
  // at most, never past the next day's).
  for (let ahead = 0; ahead <= 8; ahead += 1) {
    const date = new Date(Date.UTC(today.year, today.month - 1, today.day + ahead));
    const [year, month, day] = [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()];
    if (days && !days.has(isoWeekday(year, month, day))) continue;
    const candidate = instantOf({ year, month, day, hour, minute }, timeZone);
    if (candidate.getTime() > after.getTime()) return candidate;
  }
  throw new Error(`no fire time for ${JSON.stringify(rule)}`);
}

/**
 * The next fire time of a recurring trigger whose occurrence at `fireAt` ended at `now`: the
 * first after both, so occurrences missed while no node ran are skipped, not replayed in a burst.
 */
export function nextFireTime(rule: Recurrence, fireAt: Date, now: Date, timeZone: string): Date {
  const catchUpMs = rule.type === 'daily' ? 0 : (rule.catchUpSeconds ?? 0) * 1000;
  // The oldest occurrence still worth firing: missed by no more than the catch-up window.
  const since = new Date(Math.max(fireAt.getTime(), now.getTime() - catchUpMs));
  if (rule.type === 'interval') {
    const step = rule.seconds * 1000;
    const missed = Math.max(0, Math.ceil((since.getTime() - fireAt.getTime()) / step - 1));
    return new Date(fireAt.getTime() + (missed + 1) * step);
  }
  if (rule.type === 'cron') {
    // The first occurrence after the one that fired, unless it is older than the window.
    const next = nextFireAfter(rule, fireAt, timeZone);
    return next.getTime() >= since.getTime() ? next : nextFireAfter(rule, since, timeZone);
  }
  return nextFireAfter(rule, new Date(Math.max(fireAt.getTime(), now.getTime())), timeZone);
}

/** A rule with no fire time left (a CRON expression whose years have passed). */
export class NoNextFireTime extends Error {
  constructor(expression: string) {
    super(`no fire time left for ${expression}`);
  }
}
