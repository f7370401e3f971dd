import { ENDED_INSTANCE_STATES, isSecondlyJob, type InstanceState } from '@shuili/contract';

/** Ended instances (spec §4): succeeded, failed, canceled, stopped. */
export function isEnded(status: unknown): boolean {
  return ENDED_INSTANCE_STATES.includes(status as InstanceState);
}

/** Stop applies to an instance that has not ended (waiting or running). */
export const mayStop = (status: unknown): boolean => typeof status === 'string' && !isEnded(status);

/** Retry runs an instance that failed or was stopped or canceled again; a success stays. */
export const mayRetry = (status: unknown): boolean =>
  status === 'FAILED' || status === 'STOPPED' || status === 'CANCELED';

/** The list polls while an instance it shows may still change (one not ended). */
export function anyLive(rows: readonly Record<string, unknown>[]): boolean {
  return rows.some((row) => !isEnded(row.status));
}

/**
 * Spec §9: the list filtered by a secondly job (a CRON whose seconds field is not one fixed
 * second, or a fixed rate or delay under a minute) shows its last records only, and says so.
 */
export function showsSecondlyNote(job: Record<string, unknown> | undefined): boolean {
  if (!job || typeof job.timeExpressionType !== 'string') return false;
  return isSecondlyJob(
    job.timeExpressionType,
    typeof job.timeExpression === 'string' ? job.timeExpression : String(job.timeExpression ?? ''),
  );
}

/** The colour of a state's tag. */
export const STATE_COLOURS: Record<InstanceState, string> = {
  WAITING_DISPATCH: 'default',
  WAITING_WORKER_RECEIVE: 'gold',
  RUNNING: 'processing',
  SUCCEED: 'success',
  FAILED: 'error',
  CANCELED: 'default',
  STOPPED: 'warning',
};
