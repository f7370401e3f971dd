import type { Sql } from '../../../db/database';
import { AppError } from '../../../http/app-error';
import type {
  CommandGuard,
  CommandGuardContext,
  CommandGuards,
  CommandRecordedHook,
} from '../../iot/command/command-guards';
import { commandRepo } from '../../iot/command/command.repo';
import { wallTimeOf } from '../../scheduler/recurrence';
import { schedulerRepo } from '../../scheduler/scheduler.repo';
import { cancel, scheduleOnce } from '../../scheduler/scheduler.service';
import { irrigationRepo } from './irrigation.repo';
import { VALVE_CLOSE, valveCloseKey } from './irrigation-keys';

/** Gate commands that move the gate: one at a time per gate (stopGate always goes through). */
const GATE_MOVES = ['openGate', 'closeGate', 'setGateOpening'];

/** A time as the tenant reads it in a message: "2026-03-02 08:30". */
async function localTime(sql: Sql, tenantId: string, at: Date): Promise<string> {
  const wall = wallTimeOf(at, await schedulerRepo.timeZone(sql, tenantId));
  const two = (value: number) => String(value).padStart(2, '0');
  return `${wall.year}-${two(wall.month)}-${two(wall.day)} ${two(wall.hour)}:${two(wall.minute)}`;
}

const deviceLabel = (ctx: CommandGuardContext) =>
  ctx.device.deviceName ? `${ctx.device.deviceName} (${ctx.device.deviceNo})` : ctx.device.deviceNo;

/** The channel a valve command acts on, or undefined for other commands. */
function valveChannel(ctx: CommandGuardContext): number | undefined {
  if (ctx.name !== 'openValve' && ctx.name !== 'closeValve') return undefined;
  const channel = Number(ctx.params.channel);
  return Number.isInteger(channel) ? channel : undefined;
}

/** The pending timed close of a channel (its trigger waiting), if any. */
async function timedClose(sql: Sql, deviceId: string, channel: number) {
  const trigger = await schedulerRepo.trigger(sql, valveCloseKey(deviceId, channel));
  return trigger && trigger.state === 'waiting' ? trigger : undefined;
}

/**
 * Refuses a valve command that conflicts with what runs: a channel a rotation schedule or soil
 * rule holds (its own commands, and the timed closes that end its steps, go through), or a
 * second open of a timed-open channel for another duration.
 */
export const valveGuard: CommandGuard = async (ctx) => {
  const channel = valveChannel(ctx);
  if (channel === undefined) return;
  const { sql } = ctx;
  const closingOnTime = ctx.origin?.kind === VALVE_CLOSE;
  const hold = await irrigationRepo.hold(sql, ctx.device.id, channel);
  if (hold && !closingOnTime && ctx.origin?.holder !== hold.holder)
    throw new AppError(409, 'monitor.valveHeld', {
      params: {
        device: deviceLabel(ctx),
        channel,
        holder: hold.holder_name,
        until: await localTime(sql, ctx.tenantId, hold.until),
      },
    });
  if (ctx.name !== 'openValve') return;
  const timed = await timedClose(sql, ctx.device.id, channel);
  const minutes = Number(timed?.payload.durationMinutes);
  if (timed && minutes !== Number(ctx.params.durationMinutes))
    throw new AppError(409, 'monitor.valveTimedOpen', {
      params: {
        device: deviceLabel(ctx),
        channel,
        minutes,
        until: await localTime(sql, ctx.tenantId, timed.due_at),
      },
    });
};

/**
 * A recorded valve command's consequence, in its transaction: an open schedules the channel's
 * close at the end of its duration (replacing an earlier timer of the channel); any other close
 * than the timer's own ends the timer.
 */
export const valveTimerHook: CommandRecordedHook = async (ctx, commandId) => {
  const channel = valveChannel(ctx);
  if (channel === undefined) return;
  const key = valveCloseKey(ctx.device.id, channel);
  if (ctx.name === 'closeValve') {
    if (ctx.origin?.kind !== VALVE_CLOSE) await cancel(ctx.sql, key);
    return;
  }
  const minutes = Number(ctx.params.durationMinutes);
  if (!Number.isFinite(minutes) || minutes <= 0) return;
  const { rows } = await ctx.sql.query<{ due: Date }>(
    `SELECT now() + make_interval(mins => $1) AS due`,
    [minutes],
  );
  await scheduleOnce(ctx.sql, {
    tenantId: ctx.tenantId,
    kind: VALVE_CLOSE,
    key,
    dueAt: rows[0]!.due,
    payload: {
      deviceId: ctx.device.id,
      channel,
      durationMinutes: minutes,
      openCommandId: commandId,
      openedBy: ctx.username,
      ...(ctx.origin?.holder ? { holder: ctx.origin.holder } : {}),
    },
  });
};

/** Refuses a gate movement while another movement of the same gate is under way. */
export const gateGuard: CommandGuard = async (ctx) => {
  if (!GATE_MOVES.includes(ctx.name)) return;
  const [running] = await commandRepo.underWay(ctx.sql, ctx.device.id, GATE_MOVES);
  if (running)
    throw new AppError(409, 'monitor.gateCommandPending', {
      params: { device: deviceLabel(ctx), command: running.name, id: running.id },
    });
};

/** Registers the irrigation and sluice rules on the command service's guards. */
export function registerIrrigationGuards(guards: CommandGuards): void {
  guards.register('irrigation_valve', valveGuard);
  guards.onRecorded('irrigation_valve', valveTimerHook);
  guards.register('sluice_gate', gateGuard);
}
