import { FINAL_COMMAND_STATUSES, type CommandStatus } from '@shuili/contract';

/** Tag colours of command statuses: waiting blue, good green, bad red, dead grey. */
export const COMMAND_STATUS_COLOR: Record<CommandStatus, string> = {
  pending: 'processing',
  sent: 'processing',
  succeeded: 'success',
  failed: 'error',
  timeout: 'warning',
  expired: 'default',
  cancelled: 'default',
};

export function isFinalStatus(status: CommandStatus): boolean {
  return FINAL_COMMAND_STATUSES.includes(status);
}
