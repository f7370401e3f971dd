import { AppError } from '../../../http/app-error';
import type { CommandGuard, CommandRecordedHook } from '../../iot/command/command-guards';
import { cancel } from '../../scheduler/scheduler.service';
import { fertigationRunRepo as repo } from './fertigation-run.repo';
import { runHolder, runTriggerKey } from './fertigation-runner';

/** Commands that would change what a running program mixes or waters. */
const PROGRAM_COMMANDS = new Set(['setRecipe', 'startProgram']);
const STOP = 'stopProgram';
const isRunHolder = (holder: string | undefined) => holder?.startsWith('fertigation:') ?? false;

/**
 * A fertigation machine's guard: while a run is under way, only that run sends it a recipe or a
 * program (anyone else is refused, 409 naming the run); a run's own step is refused once the
 * run has ended (stopped by hand meanwhile), so a stop never loses a race against a step: both
 * are commands to the machine, serialised by its command lock. Stopping is always allowed.
 */
export const fertigationGuard: CommandGuard = async (ctx) => {
  if (!PROGRAM_COMMANDS.has(ctx.name)) return;
  const running = await repo.runningOn(ctx.sql, ctx.device.id);
  const holder = ctx.origin?.holder;
  if (isRunHolder(holder)) {
    if (!running || runHolder(running.id) !== holder)
      throw new AppError(409, 'monitor.fertigationRunEnded');
    return;
  }
  if (running)
    throw new AppError(409, 'monitor.fertigationHeld', {
      params: { program: running.program.programName, run: running.id },
    });
};

/**
 * A stopProgram sent by anyone but the run itself (the stop call, the device page) ends the
 * machine's run as stopped by that user, in the same transaction, and cancels its next look.
 */
export const fertigationStopHook: CommandRecordedHook = async (ctx, commandId) => {
  if (ctx.name !== STOP || isRunHolder(ctx.origin?.holder)) return;
  const running = await repo.runningOn(ctx.sql, ctx.device.id);
  if (!running) return;
  await endByHand(ctx.sql, running.id, ctx.username);
  await repo.appendStep(ctx.sql, running.id, {
    name: STOP,
    params: {},
    at: new Date().toISOString(),
    commandId,
  });
};

/** Ends a run as stopped by a user and cancels its trigger. */
export async function endByHand(
  sql: Parameters<CommandGuard>[0]['sql'],
  runId: string,
  username: string,
): Promise<boolean> {
  const ended = await repo.end(sql, runId, 'stopped', {
    key: 'monitor.fertigation.stoppedBy',
    params: { username },
  });
  await cancel(sql, runTriggerKey(runId));
  return ended;
}
