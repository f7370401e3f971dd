import { RetentionSweeper } from '../../iot/telemetry/retention-sweeper';
import { RetentionSettings } from '../../iot/telemetry/telemetry-settings';
import { forgetEffects } from './once';
import type { JobProcessor, JobRunContext } from '../job-processor';

/** The states of an instance that has ended (spec §4); only those are ever forgotten. */
const ENDED = ['FAILED', 'SUCCEED', 'CANCELED', 'STOPPED'];

/**
 * The app's telemetry sweeper (its dropped partitions are forgotten by the writer); a context
 * without one (a test, a tool) gets a sweeper of its own over the same settings.
 */
function sweeperOf(ctx: JobRunContext) {
  return ctx.telemetrySweeper ?? new RetentionSweeper(ctx.db, new RetentionSettings(ctx.db));
}

/**
 * Runs the telemetry retention sweep now (every tenant's retention, one node at a time under
 * its advisory lock) and forgets the tenant's ended job instances older than `instanceDays`
 * (their logs and sub-tasks go with them). Both are idempotent: a second run deletes nothing
 * more. Broadcast, every node does the same; the node keeps no temporary or export files of
 * its own (exports are streamed), so there is nothing local to clear and its result says so.
 */
export const retentionSweepProcessor: JobProcessor = {
  type: 'retentionSweep',
  async run(ctx) {
    const days = Number(ctx.params.instanceDays);
    await ctx.log('telemetry retention sweep');
    const swept = await sweeperOf(ctx).sweep();
    await ctx.log(
      `telemetry: ${swept.deleted} readings deleted, ${swept.dropped.length} month partitions dropped`,
    );
    ctx.signal.throwIfAborted();
    const instances = await ctx.db.tenant(ctx.tenantId, async (sql) => {
      const { rows } = await sql.query<{ id: string }>(
        `DELETE FROM job_instance
            WHERE tenant_id = $1 AND status = ANY($2::text[])
              AND coalesce(finished_time, expected_trigger_time) < now() - make_interval(days => $3)
              -- the instance running this sweep is never among them (it has not ended)
              AND id <> $4::bigint
          RETURNING id::text`,
        [ctx.tenantId, ENDED, days, ctx.instanceId],
      );
      await forgetEffects(
        sql,
        rows.map((row) => row.id),
      );
      return rows.length;
    });
    await ctx.log(`job history: ${instances} ended instances older than ${days} days deleted`);
    return {
      result:
        `telemetry: ${swept.deleted} readings, ${swept.dropped.length} partitions; ` +
        `job instances: ${instances} deleted (older than ${days} days); node ${ctx.node}: no local files to clear`,
      context: { readingsDeleted: swept.deleted, instancesDeleted: instances },
    };
  },
};
