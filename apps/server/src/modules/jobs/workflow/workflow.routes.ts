import {
  JOB_CALLS,
  label,
  type WfInstanceDetail,
  type WfInstanceState,
  type WfNodeState,
  type WorkflowDag,
} from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database, Sql } from '../../../db/database';
import { AppError } from '../../../http/app-error';
import { envelopeOf, ok } from '../../../http/envelope';
import { authOf } from '../../../http/request-context';
import type { PendingMails } from '../job-instances';
import type { JobRunner } from '../job-runner';
import { checkDag, initParamsProblem } from './workflow-check';
import {
  markWorkflowNodeSuccess,
  queueMails,
  retryWorkflowInstance,
  startWorkflowInstance,
  stopWorkflowInstance,
  workflowStartable,
  type WfRefusal,
} from './workflow-engine';
import { idParam as id, isoOrNull as iso } from '../job-http';

const fieldLabels = {
  id: { label: label('Id', '编号', '編號') },
  dag: { label: label('DAG', 'DAG', 'DAG') },
  initParams: { label: label('Init params', '初始参数', '初始參數') },
  nodeId: { label: label('Node', '节点', '節點') },
};

/** The refusal of a call on a run as a translated error naming the field it concerns. */
function refusalError(refusal: WfRefusal, runId: string, nodeId?: string): AppError {
  switch (refusal.refused) {
    case 'missing':
      return new AppError(404, 'jobs.wf.instanceMissing', {
        fields: [{ field: 'id', key: 'jobs.wf.instanceMissing', params: { id: runId } }],
      });
    case 'state':
      return new AppError(409, 'jobs.wf.instanceState', {
        fields: [
          {
            field: 'id',
            key: 'jobs.wf.instanceState',
            params: { id: runId, status: refusal.status },
          },
        ],
      });
    case 'unknownNode':
      return new AppError(400, 'jobs.wf.nodeUnknown', {
        fields: [
          {
            field: 'nodeId',
            key: 'jobs.wf.nodeUnknown',
            params: { id: runId, nodeId: nodeId ?? '' },
          },
        ],
      });
    case 'nodeState':
      return new AppError(409, 'jobs.wf.nodeState', {
        fields: [
          {
            field: 'nodeId',
            key: 'jobs.wf.nodeState',
            params: { nodeId: nodeId ?? '', status: refusal.status },
          },
        ],
      });
  }
}

/**
 * The workflow calls (JOB_CALLS, docs/jobs.md "Workflows"): a workflow's DAG read and saved
 * (a cycle refused, naming its nodes), a run started by hand, a run's details, and stop, retry
 * and mark-success on a run. Granted calls of their screens' menus, in the caller's tenant.
 */
export async function workflowRoutes(
  fastify: FastifyInstance,
  deps: { db: Database; runner: JobRunner },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['jobs'];
  const config = { permission: 'granted' as const, fieldLabels };
  const { db } = deps;
  const poke = () => deps.runner.deps.scheduler.poke();

  app.get(JOB_CALLS.queryWorkflowDag, {
    config: { ...config, reads: true },
    schema: {
      tags,
      summary: "A workflow's DAG (job and decision nodes, edges), with its name and version",
      querystring: z.object({ id }),
      response: { 200: envelopeOf(z.unknown()) },
    },
    handler: async (request) =>
      ok(
        await db.tenant(authOf(request), async (sql) => {
          const { rows } = await sql.query<{
            dag: WorkflowDag;
            wf_name: string;
            dag_version: number;
          }>('SELECT dag, wf_name, dag_version FROM workflow_info WHERE id = $1', [
            request.query.id,
          ]);
          if (!rows[0]) throw workflowMissing(request.query.id);
          // The DAG's own members, and which workflow it is (the editor's title).
          return {
            ...rows[0].dag,
            id: request.query.id,
            wfName: rows[0].wf_name,
            dagVersion: rows[0].dag_version,
          };
        }),
      ),
  });

  app.put(JOB_CALLS.saveWorkflowDag, {
    config,
    schema: {
      tags,
      summary: 'Saves a DAG; a cycle, an unknown node or a job not of the tenant is refused',
      body: z.object({ id, dag: z.unknown() }),
      response: { 200: envelopeOf(z.object({ dagVersion: z.number() })) },
    },
    handler: async (request) => {
      const { id: workflowId, dag } = request.body;
      const dagVersion = await db.tenant(authOf(request), async (sql) => {
        const checked = await checkDag(sql, dag);
        if ('problem' in checked)
          throw new AppError(400, checked.problem.key, { fields: [checked.problem] });
        const { rows } = await sql.query<{ dag_version: number }>(
          `UPDATE workflow_info SET dag = $2, dag_version = dag_version + 1, updated_at = now(),
                  updated_by = $3 WHERE id = $1 RETURNING dag_version`,
          [workflowId, JSON.stringify(checked.dag), authOf(request).userId],
        );
        if (!rows[0]) throw workflowMissing(workflowId);
        return rows[0].dag_version;
      });
      return ok({ dagVersion });
    },
  });

  app.post(JOB_CALLS.runWorkflow, {
    config,
    schema: {
      tags,
      summary: 'Runs a workflow now (an API-triggered run), whatever its time expression',
      body: z.object({ id, initParams: z.string().max(20_000).nullish() }),
      response: {
        200: envelopeOf(z.object({ wfInstanceId: z.string(), status: z.string() })),
      },
    },
    handler: async (request) => {
      const auth = authOf(request);
      const { id: workflowId, initParams } = request.body;
      const problem = initParamsProblem(initParams);
      if (problem) throw new AppError(400, problem.key, { fields: [problem] });
      const made = await db.tenant(auth, async (sql) => {
        const workflow = await workflowStartable(sql, workflowId);
        if (!workflow) throw workflowMissing(workflowId);
        if (workflow.status !== 1)
          throw new AppError(409, 'jobs.wf.disabled', {
            fields: [{ field: 'id', key: 'jobs.wf.disabled', params: { id: workflowId } }],
          });
        if (workflow.nodes === 0)
          throw new AppError(409, 'jobs.wf.dagEmpty', {
            fields: [{ field: 'id', key: 'jobs.wf.dagEmpty', params: { id: workflowId } }],
          });
        const mails: PendingMails = [];
        const started = await startWorkflowInstance(
          sql,
          {
            tenantId: auth.tenantId,
            workflowId,
            triggerType: 'API',
            expectedTriggerTime: new Date(),
            initParams: initParams ?? null,
          },
          mails,
        );
        await queueMails(sql, auth.tenantId, mails);
        return started!;
      });
      poke();
      return ok({ wfInstanceId: made.id, status: made.status });
    },
  });

  app.get(JOB_CALLS.queryWfInstanceDetail, {
    config: { ...config, reads: true },
    schema: {
      tags,
      summary: 'A workflow run with its DAG snapshot, context and node states',
      querystring: z.object({ id }),
      response: { 200: envelopeOf(z.unknown()) },
    },
    handler: async (request) =>
      ok(await db.tenant(authOf(request), (sql) => wfInstanceDetail(sql, request.query.id))),
  });

  /** A call that changes a run: its refusal as an error, its e-mails after commit. */
  const runCall = async (
    request: Parameters<typeof authOf>[0],
    runId: string,
    work: (sql: Sql, by: string, mails: PendingMails) => Promise<WfRefusal | undefined>,
    nodeId?: string,
  ) => {
    const auth = authOf(request);
    await db.tenant(auth, async (sql) => {
      const mails: PendingMails = [];
      const refusal = await work(sql, auth.username, mails);
      if (refusal) throw refusalError(refusal, runId, nodeId);
      await queueMails(sql, auth.tenantId, mails);
    });
    poke();
  };

  app.post(JOB_CALLS.stopWfInstance, {
    config,
    schema: {
      tags,
      summary: 'Stops a running workflow run (its running job instances too)',
      body: z.object({ id }),
      response: { 200: envelopeOf(z.object({ stopped: z.boolean() })) },
    },
    handler: async (request) => {
      await runCall(request, request.body.id, (sql, by, mails) =>
        stopWorkflowInstance(sql, request.body.id, by, mails),
      );
      return ok({ stopped: true });
    },
  });

  app.post(JOB_CALLS.retryWfInstance, {
    config,
    schema: {
      tags,
      summary: "Runs a failed run's failed nodes again (and what they blocked)",
      body: z.object({ id }),
      response: { 200: envelopeOf(z.object({ retried: z.boolean() })) },
    },
    handler: async (request) => {
      await runCall(request, request.body.id, (sql, _by, mails) =>
        retryWorkflowInstance(sql, request.body.id, mails),
      );
      return ok({ retried: true });
    },
  });

  app.post(JOB_CALLS.markNodeSuccess, {
    config,
    schema: {
      tags,
      summary: 'Marks a failed or stopped node successful; the nodes it blocked run',
      body: z.object({ id, nodeId: z.string().trim().min(1).max(64) }),
      response: { 200: envelopeOf(z.object({ marked: z.boolean() })) },
    },
    handler: async (request) => {
      const { id: runId, nodeId } = request.body;
      await runCall(
        request,
        runId,
        (sql, by, mails) => markWorkflowNodeSuccess(sql, runId, nodeId, by, mails),
        nodeId,
      );
      return ok({ marked: true });
    },
  });
}

function workflowMissing(workflowId: string): AppError {
  return new AppError(404, 'jobs.wf.missing', {
    fields: [{ field: 'id', key: 'jobs.wf.missing', params: { id: workflowId } }],
  });
}

/** A run as its details screen shows it: the DAG it started with and its nodes' states. */
export async function wfInstanceDetail(sql: Sql, runId: string): Promise<WfInstanceDetail> {
  const { rows } = await sql.query<{
    id: string;
    workflow_id: string;
    wf_name: string | null;
    status: WfInstanceState;
    expected_trigger_time: Date;
    start_time: Date | null;
    finished_time: Date | null;
    init_params: string | null;
    context: Record<string, unknown>;
    result: string | null;
    dag: WorkflowDag;
  }>(
    `SELECT i.id::text, i.workflow_id::text, w.wf_name, i.status, i.expected_trigger_time,
            i.start_time, i.finished_time, i.init_params, i.context, i.result, i.dag
       FROM workflow_instance i LEFT JOIN workflow_info w ON w.id = i.workflow_id
      WHERE i.id = $1`,
    [runId],
  );
  const run = rows[0];
  if (!run) throw refusalError({ refused: 'missing' }, runId);
  const { rows: nodes } = await sql.query<{
    node_id: string;
    status: WfNodeState;
    job_instance_id: string | null;
    start_time: Date | null;
    finished_time: Date | null;
    result: string | null;
  }>(
    `SELECT node_id, status, job_instance_id::text, start_time, finished_time, result
       FROM workflow_node_instance WHERE wf_instance_id = $1 ORDER BY id`,
    [runId],
  );
  return {
    id: run.id,
    workflowId: run.workflow_id,
    wfName: run.wf_name ?? '',
    status: run.status,
    expectedTriggerTime: run.expected_trigger_time.toISOString(),
    startTime: iso(run.start_time),
    finishedTime: iso(run.finished_time),
    initParams: run.init_params,
    context: run.context ?? {},
    result: run.result,
    dag: run.dag,
    nodes: nodes.map((node) => ({
      nodeId: node.node_id,
      status: node.status,
      jobInstanceId: node.job_instance_id,
      startTime: iso(node.start_time),
      finishedTime: iso(node.finished_time),
      result: node.result,
    })),
  };
}
