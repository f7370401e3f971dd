import { setTimeout as sleep } from 'node:timers/promises';
import { ROTATION_START } from '../../monitor/irrigation/irrigation-keys';
import { irrigationRepo } from '../../monitor/irrigation/irrigation.repo';
import { schedulerRepo } from '../../scheduler/scheduler.repo';
import type { JobProcessor } from '../job-processor';

/** How long the job waits to tell how the start went (the scheduler takes it within seconds). */
const WAIT_MS = 30_000;
const POLL_MS = 500;

/** The one-off start trigger of an instance: its key is the instance's, so it is made once. */
export const rotationJobKey = (idempotencyKey: string) =>
  `irrigation:rotation-job:${idempotencyKey}`;

/**
 * Starts a rotation schedule now through the irrigation module's own start (rotation.processor:
 * holds the groups' channels, schedules the steps, skips a disabled schedule or one whose
 * rotation still runs): a one-off start trigger due now, inserted only if the instance's key
 * has none yet, whatever its state. A second run of the same instance (another node after a
 * crash, a retry) finds the trigger and starts nothing more; it only reports the start's run.
 */
export const irrigationProgramProcessor: JobProcessor = {
  type: 'irrigationProgram',
  async run(ctx) {
    const scheduleId = String(ctx.params.scheduleId);
    const key = rotationJobKey(ctx.idempotencyKey);
    const { name, created } = await ctx.db.tenant(ctx.tenantId, async (sql) => {
      const schedule = await irrigationRepo.rotation(sql, scheduleId);
      if (!schedule) throw new Error(`rotation schedule ${scheduleId} does not exist`);
      const inserted = await schedulerRepo.insertIfAbsent(sql, {
        tenantId: ctx.tenantId,
        kind: ROTATION_START,
        key,
        dueAt: new Date(),
        payload: { scheduleId },
        recurrence: null,
        maxAttempts: 3,
      });
      return { name: schedule.schedule_name, created: inserted };
    });
    await ctx.log(
      created
        ? `rotation "${name}" start queued`
        : `rotation "${name}" start was queued by an earlier run of this instance: not started again`,
    );
    const deadline = Date.now() + WAIT_MS;
    while (Date.now() < deadline) {
      const run = await ctx.db.tenant(ctx.tenantId, async (sql) => {
        const { rows } = await sql.query<{
          state: string;
          result: { reason?: string } | null;
          error: string | null;
        }>(
          `SELECT state, result, error FROM scheduler_run WHERE tenant_id = $1 AND key = $2
            ORDER BY id DESC LIMIT 1`,
          [ctx.tenantId, key],
        );
        return rows[0];
      });
      if (run && run.state !== 'running' && run.state !== 'retrying') {
        const reason = run.result?.reason ?? run.error ?? run.state;
        await ctx.log(`rotation "${name}": ${reason}`, run.state === 'failed' ? 'error' : 'info');
        if (run.state === 'failed') throw new Error(`rotation "${name}": ${reason}`);
        return {
          result: `rotation "${name}": ${reason}`,
          context: { rotationScheduleId: scheduleId, rotationDecision: run.state },
        };
      }
      await sleep(POLL_MS, undefined, { signal: ctx.signal });
    }
    return {
      result: `rotation "${name}": start queued, not yet taken by the scheduler`,
      context: { rotationScheduleId: scheduleId, rotationDecision: 'queued' },
    };
  },
};
