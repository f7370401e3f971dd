import type { FastifyInstance } from 'fastify';
import type { Database, Sql } from '../../../db/database';
import type { RunOutcome, SchedulerRun } from '../../scheduler/scheduler.service';
import { onInstanceEnded, type PendingMails } from '../job-instances';
import type { JobRunner } from '../job-runner';
import {
  onJobInstanceEnded,
  queueMails,
  startWorkflowInstance,
  workflowStartable,
  WORKFLOW_FIRE_KIND,
  WORKFLOW_MAIL_KIND,
} from './workflow-engine';
import { workflowRoutes } from './workflow.routes';

/** Days the core keeps its runs of the workflow kinds (the runs' own rows are the history). */
const RUN_DAYS = 7;

/**
 * A workflow's trigger fired: its run for this occurrence, inserted in the claim's transaction
 * (the fire-once index makes a second node's insert of the same occurrence do nothing).
 */
async function fire(run: SchedulerRun<{ workflowId: string }>, sql: Sql): Promise<RunOutcome> {
  const workflow = await workflowStartable(sql, run.payload.workflowId);
  if (workflow?.status !== 1) return { state: 'skipped', result: { reason: 'workflow disabled' } };
  // As a run by hand is refused (jobs.wf.dagEmpty): a workflow saved before its DAG, or whose
  // DAG was emptied, makes no empty runs on its schedule.
  if (workflow.nodes === 0)
    return { state: 'skipped', result: { reason: 'workflow has no nodes' } };
  const mails: PendingMails = [];
  const made = await startWorkflowInstance(
    sql,
    {
      tenantId: run.tenantId,
      workflowId: run.payload.workflowId,
      triggerType: 'SCHEDULE',
      expectedTriggerTime: run.fireAt,
    },
    mails,
  );
  await queueMails(sql, run.tenantId, mails);
  return { result: { wfInstanceId: made?.id ?? null, status: made?.status ?? 'exists' } };
}

/**
 * DAG workflows on this node (docs/jobs.md "Workflows"): the fire and mail kinds on the
 * scheduler core, the engine listening to job instances' ends, and the workflow calls.
 * Registered after the jobs (it uses their runner).
 */
export async function registerWorkflows(
  app: FastifyInstance,
  deps: { db: Database; runner: JobRunner },
): Promise<void> {
  const { scheduler } = deps.runner.deps;
  scheduler.registerInlineProcessor<{ workflowId: string }>(WORKFLOW_FIRE_KIND, fire, {
    keepRunsDays: RUN_DAYS,
  });
  scheduler.registerProcessor<{ mails: PendingMails }>(
    WORKFLOW_MAIL_KIND,
    async (run) => {
      await deps.runner.mail(run.payload.mails ?? []);
    },
    { keepRunsDays: RUN_DAYS },
  );
  const unsubscribe = onInstanceEnded(onJobInstanceEnded);
  app.addHook('onClose', async () => {
    unsubscribe();
  });
  await app.register(workflowRoutes, { db: deps.db, runner: deps.runner });
}
