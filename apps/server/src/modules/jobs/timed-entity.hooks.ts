import type { TimeExpressionType } from '@shuili/contract';
import type { EntityContext, EntityHooks } from '../../entity/entity-hooks';
import type { Row } from '../../entity/entity-repo';
import { syncTimedTrigger } from './job-schedule';

/**
 * The hooks a timed entity (a job, a workflow) shares: its row checked before every save, and
 * its trigger kept in step with the row after every save and enable or disable, in the same
 * transaction, so the schedule that runs is always the one shown. Deleting is the entity's own.
 */
export function timedEntityHooks(timed: {
  table: 'job_info' | 'workflow_info';
  /** The trigger's key and kind, and its payload's id member (`jobId`, `workflowId`). */
  triggerKey: (id: string) => string;
  kind: string;
  payloadKey: string;
  check(ctx: EntityContext, id: string | undefined, values: Row): Promise<Row>;
}): Required<
  Pick<EntityHooks, 'beforeCreate' | 'beforeUpdate' | 'afterCreate' | 'afterUpdate' | 'afterStatus'>
> {
  const sync = async (ctx: EntityContext, id: string): Promise<void> => {
    const { rows } = await ctx.sql.query<{
      tenant_id: string;
      time_expression_type: TimeExpressionType;
      time_expression: string | null;
      status: number;
    }>(
      `SELECT tenant_id::text, time_expression_type, time_expression, status FROM ${timed.table}
        WHERE id = $1`,
      [id],
    );
    const row = rows[0];
    if (!row) return;
    await syncTimedTrigger(ctx.sql, {
      tenantId: row.tenant_id,
      key: timed.triggerKey(id),
      kind: timed.kind,
      type: row.time_expression_type,
      expression: row.time_expression,
      enabled: row.status === 1,
      payload: { [timed.payloadKey]: id },
    });
  };
  return {
    beforeCreate: (ctx, values) => timed.check(ctx, undefined, values),
    beforeUpdate: (ctx, id, values) => timed.check(ctx, id, values),
    afterCreate: async (ctx, id) => {
      await sync(ctx, id);
    },
    afterUpdate: (ctx, id) => sync(ctx, id),
    afterStatus: async (ctx, ids) => {
      for (const id of ids) await sync(ctx, id);
    },
  };
}
