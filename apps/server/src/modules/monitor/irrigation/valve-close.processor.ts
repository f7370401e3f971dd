import { COMMAND_MAX_EXPIRES_SECONDS } from '@shuili/contract';
import type { Database } from '../../../db/database';
import { AppError } from '../../../http/app-error';
import type { CommandService } from '../../iot/command/command.service';
import { commandRepo } from '../../iot/command/command.repo';
import { PermanentRunFailure, type Processor } from '../../scheduler/scheduler.service';
import { VALVE_CLOSE } from './irrigation-keys';

/** The operator of the server's own valve commands in the operation records. */
export const TIMER_OPERATOR = 'timer';

interface ValveClosePayload {
  deviceId: string;
  channel: number;
  durationMinutes: number;
  openCommandId: string;
  holder?: string;
}

/**
 * A timed open's end: sends closeValve for the channel. An offline device gets it when it is
 * back (the close waits up to the longest expiry, like any command). An open that never reached
 * the valve (cancelled or expired) needs no close. Idempotent by run (sendForRun).
 */
export function valveCloseProcessor(deps: {
  db: Database;
  commands: CommandService;
}): Processor<ValveClosePayload> {
  return async (run) => {
    const { deviceId, channel, openCommandId } = run.payload;
    const open = await deps.db.tenant(run.tenantId, (sql) => commandRepo.byId(sql, openCommandId));
    if (open && (open.status === 'cancelled' || open.status === 'expired'))
      return {
        state: 'skipped',
        result: { decision: 'skipped', reason: `open ${open.id} ${open.status}` },
      };
    try {
      const { view } = await deps.commands.sendForRun({
        tenantId: run.tenantId,
        deviceId,
        name: 'closeValve',
        params: { channel },
        expiresInSeconds: COMMAND_MAX_EXPIRES_SECONDS,
        username: TIMER_OPERATOR,
        origin: { kind: VALVE_CLOSE, key: run.key, runId: run.runId, holder: run.payload.holder },
        effect: `close:${deviceId}:${channel}`,
      });
      return { result: { decision: 'closed', commandId: view.id, status: view.status } };
    } catch (error) {
      // A close of the channel already under way (sent by hand) does what this one would.
      if (error instanceof AppError && error.key === 'iot.commandConflict')
        return {
          state: 'skipped',
          result: { decision: 'skipped', reason: 'a close is already under way' },
        };
      // The device is gone or no longer takes the command: retrying cannot help.
      if (error instanceof AppError && error.status < 500)
        throw new PermanentRunFailure(`${error.key} ${JSON.stringify(error.options.params ?? {})}`);
      throw error;
    }
  };
}
