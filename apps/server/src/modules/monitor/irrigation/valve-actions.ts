import { COMMAND_MAX_EXPIRES_SECONDS, type ValveMember } from '@shuili/contract';
import { AppError } from '../../../http/app-error';
import type { CommandService } from '../../iot/command/command.service';
import type { CommandOrigin } from '../../iot/command/command-guards';
import type { SchedulerRun } from '../../scheduler/scheduler.service';

/** What became of one channel's command in a run. */
export interface ChannelOutcome {
  deviceId: string;
  channel: number;
  /** The command recorded (sent now or waiting for the device). */
  commandId?: string;
  /** Why it was refused: the server message key and its parameters. */
  refused?: { key: string; params?: Record<string, string | number> };
}

/**
 * Opens (for `minutes`) or closes each channel for a scheduler run, as the server's own commands
 * (guarded like a user's, idempotent by run). A refused channel does not stop the others: the
 * run records which were refused and why.
 */
export async function actOnChannels(
  commands: CommandService,
  run: SchedulerRun<unknown>,
  action: { open: boolean; minutes?: number; operator: string; holder?: string },
  members: readonly ValveMember[],
): Promise<ChannelOutcome[]> {
  const origin: CommandOrigin & { runId: string } = {
    kind: run.kind,
    key: run.key,
    runId: run.runId,
    ...(action.holder ? { holder: action.holder } : {}),
  };
  const outcomes: ChannelOutcome[] = [];
  for (const member of members) {
    const outcome: ChannelOutcome = { deviceId: member.deviceId, channel: member.channel };
    try {
      const { view } = await commands.sendForRun({
        tenantId: run.tenantId,
        deviceId: member.deviceId,
        name: action.open ? 'openValve' : 'closeValve',
        params: action.open
          ? { channel: member.channel, durationMinutes: action.minutes }
          : { channel: member.channel },
        // An open that starts late is no use: it waits no longer than its own minutes; a close
        // waits for its device as long as any command may.
        expiresInSeconds: action.open
          ? Math.max(60, (action.minutes ?? 1) * 60)
          : COMMAND_MAX_EXPIRES_SECONDS,
        username: action.operator,
        origin,
        effect: `${action.open ? 'open' : 'close'}:${member.deviceId}:${member.channel}`,
      });
      outcome.commandId = view.id;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      outcome.refused = {
        key: error.key,
        ...(error.options.params ? { params: error.options.params } : {}),
      };
    }
    outcomes.push(outcome);
  }
  return outcomes;
}

/** Counts for a run's result. */
export function tally(outcomes: readonly ChannelOutcome[]): { sent: number; refused: number } {
  const refused = outcomes.filter((one) => one.refused).length;
  return { sent: outcomes.length - refused, refused };
}
