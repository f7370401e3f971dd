import { workflowInfoEntity, type EntityDef, type TimeExpressionType } from '@shuili/contract';
import type { EntityContext, EntityHooks } from '../../../entity/entity-hooks';
import type { Row } from '../../../entity/entity-repo';
import type { FieldProblem } from '../../../http/app-error';
import { mergedRow, refuseProblems } from '../../monitor/entity-rows';
import { cancel } from '../../scheduler/scheduler.service';
import type { PendingMails } from '../job-instances';
import { timeExpressionProblem } from '../job-schedule';
import { timedEntityHooks } from '../timed-entity.hooks';
import { checkDag, initParamsProblem } from './workflow-check';
import {
  queueMails,
  stopWorkflowInstance,
  WORKFLOW_FIRE_KIND,
  workflowTriggerKey,
} from './workflow-engine';

/**
 * A workflow is saved only with a usable time expression (never WORKFLOW: a workflow is not a
 * node of another), init params that are a JSON object, and a sound DAG when one comes with the
 * save. Its trigger follows every save, enable and delete in the same transaction.
 */
async function checkWorkflow(
  ctx: EntityContext,
  id: string | undefined,
  values: Row,
): Promise<Row> {
  const row = await mergedRow(ctx.sql, 'workflow_info', id, values);
  if (id && row.id === undefined) return {}; // not the caller's: the generic update answers 404
  const problems: FieldProblem[] = [];
  const type = row.timeExpressionType as TimeExpressionType;
  if (type === 'WORKFLOW')
    problems.push({ field: 'timeExpressionType', key: 'jobs.wf.typeWorkflow' });
  else {
    const timing = timeExpressionProblem(type, row.timeExpression as string | null);
    if (timing) problems.push(timing);
  }
  const params = initParamsProblem(row.initParams as string | null);
  if (params) problems.push(params);
  const extra: Row = {};
  if (values.dag !== undefined && values.dag !== null) {
    const checked = await checkDag(ctx.sql, values.dag);
    if ('problem' in checked) problems.push(checked.problem);
    else if (id) extra.dag_version = Number(row.dagVersion ?? 1) + 1;
  }
  refuseProblems(problems);
  return extra;
}

const workflowHooks: EntityHooks = {
  ...timedEntityHooks({
    table: 'workflow_info',
    triggerKey: workflowTriggerKey,
    kind: WORKFLOW_FIRE_KIND,
    payloadKey: 'workflowId',
    check: checkWorkflow,
  }),
  // A deleted workflow's runs go with it (cascade): nothing of it may still fire or run.
  beforeDelete: async (ctx, ids) => {
    const mails: PendingMails = [];
    for (const id of ids) await cancel(ctx.sql, workflowTriggerKey(id));
    const { rows } = await ctx.sql.query<{ id: string; tenant_id: string }>(
      `SELECT id::text, tenant_id::text FROM workflow_instance
        WHERE workflow_id = ANY ($1::bigint[]) AND status IN ('WAITING', 'RUNNING')`,
      [ids],
    );
    for (const run of rows) {
      await stopWorkflowInstance(ctx.sql, run.id, ctx.auth.username, mails);
      await queueMails(ctx.sql, run.tenant_id, mails);
    }
  },
};

export const WORKFLOW_ENTITY_HOOKS: ReadonlyMap<EntityDef, EntityHooks> = new Map([
  [workflowInfoEntity, workflowHooks],
]);
