import {
  entityCalls,
  JOB_CALLS,
  jobInfoEntity,
  workflowInfoEntity,
  type WfInstanceDetail,
  type WfNodeState,
  type WorkflowDag,
  type WorkflowNode,
} from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import {
  BACKENDS,
  startSecondNode,
  startTestServer,
  type TestServer,
} from '@shuili/test-support/test-server';
import type { Database } from '../../../db/database';
import { addJob, startHookService, webhookJob, type HookService } from '../jobs-test-kit';
import { registerWorkflows } from './workflow.module';

const calls = entityCalls(workflowInfoEntity);
const jobCalls = entityCalls(jobInfoEntity);

/**
 * Registers the workflows on a test app built before app.ts wired them in; once app.ts does
 * (its workflow calls exist), this does nothing.
 */
async function wireWorkflows(app: FastifyInstance, db: Database): Promise<void> {
  if (app.hasRoute({ method: 'POST', url: JOB_CALLS.runWorkflow })) return;
  await registerWorkflows(app, { db, runner: app.jobs });
}

const job = (id: string, jobId: string, extra: Partial<WorkflowNode> = {}): WorkflowNode => ({
  id,
  type: 'job',
  name: `node ${id}`,
  jobId,
  enable: true,
  skipWhenFailed: false,
  ...extra,
});

const edge = (from: string, to: string, branch?: 'true' | 'false') =>
  branch ? { from, to, branch } : { from, to };

describe.each(BACKENDS)('DAG workflows on $backend', ({ backend, available }) => {
  let server: TestServer;
  let hook: HookService;
  let admin: string;
  let ok: string;
  let fail: string;
  let slow: string;
  const test = it.skipIf(!available);

  beforeAll(async () => {
    if (!available) return;
    hook = await startHookService();
    server = await startTestServer({
      backend,
      config: { jobWebhookHosts: ['127.0.0.1'], schedulerRetryBaseMs: 200 },
      beforeListen: wireWorkflows,
    });
    admin = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
    ok = await addJob(server, admin, webhookJob(hook, '/ok'));
    fail = await addJob(server, admin, webhookJob(hook, '/fail'));
    slow = await addJob(server, admin, webhookJob(hook, '/slow'));
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    await hook?.close();
  });

  /** A workflow saved without its DAG yet; answers its id. */
  async function addWorkflowInfo(fields: Record<string, unknown>) {
    const added = await call(server, 'POST', calls.add, {
      token: admin,
      body: {
        wfName: `wf ${Math.random().toString(36).slice(2, 8)}`,
        timeExpressionType: 'API',
        maxWfInstanceNum: 0,
        status: 1,
        ...fields,
      },
    });
    if (added.status !== 200) throw new Error(`add: ${added.status} ${JSON.stringify(added.body)}`);
    const data = added.body.data as { id?: string } | string;
    return typeof data === 'object' ? String(data.id) : String(data);
  }

  async function addWorkflow(dag: WorkflowDag, fields: Record<string, unknown> = {}) {
    const id = await addWorkflowInfo(fields);
    const saved = await call(server, 'PUT', JOB_CALLS.saveWorkflowDag, {
      token: admin,
      body: { id, dag },
    });
    if (saved.status !== 200) throw new Error(`dag: ${saved.status} ${JSON.stringify(saved.body)}`);
    return id;
  }

  async function run(id: string, initParams?: string): Promise<string> {
    const ran = await call(server, 'POST', JOB_CALLS.runWorkflow, {
      token: admin,
      body: initParams === undefined ? { id } : { id, initParams },
    });
    if (ran.status !== 200) throw new Error(`run: ${ran.status} ${JSON.stringify(ran.body)}`);
    return (ran.body.data as { wfInstanceId: string }).wfInstanceId;
  }

  async function detail(id: string): Promise<WfInstanceDetail> {
    const found = await call<{ data: WfInstanceDetail }>(
      server,
      'GET',
      JOB_CALLS.queryWfInstanceDetail,
      { token: admin, query: { id } },
    );
    if (found.status !== 200)
      throw new Error(`detail: ${found.status} ${JSON.stringify(found.body)}`);
    return found.body.data;
  }

  async function until(id: string, done: (run: WfInstanceDetail) => boolean, timeoutMs = 40_000) {
    const deadline = Date.now() + timeoutMs;
    let last: WfInstanceDetail | undefined;
    while (Date.now() < deadline) {
      last = await detail(id);
      if (done(last)) return last;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`run ${id} did not get there: ${JSON.stringify(last)}`);
  }

  const ended = (run: WfInstanceDetail) => run.status !== 'RUNNING' && run.status !== 'WAITING';
  const states = (run: WfInstanceDetail) =>
    Object.fromEntries(run.nodes.map((node) => [node.nodeId, node.status])) as Record<
      string,
      WfNodeState
    >;
  const instanceOf = (run: WfInstanceDetail, nodeId: string) =>
    run.nodes.find((node) => node.nodeId === nodeId)!.jobInstanceId;

  async function setJobPath(jobId: string, path: string) {
    const updated = await call(server, 'PUT', jobCalls.update, {
      token: admin,
      body: {
        id: jobId,
        jobParams: JSON.stringify({
          url: `${hook.url}${path}`,
          method: 'POST',
          requestTimeoutMs: 60_000,
        }),
      },
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
  }

  test('a failed branch blocks only its descendants; retry re-runs only them; mark-success advances', async () => {
    // B's own job, so the test can make it pass later without touching the other nodes' job.
    const flaky = await addJob(server, admin, webhookJob(hook, '/fail'));
    const dag: WorkflowDag = {
      nodes: [job('A', ok), job('B', flaky), job('C', ok), job('D', ok), job('E', ok)],
      edges: [edge('A', 'B'), edge('B', 'D'), edge('A', 'C'), edge('C', 'E')],
    };
    const workflowId = await addWorkflow(dag);
    const first = await until(await run(workflowId), ended);
    expect(first.status).toBe('FAILED');
    expect(states(first)).toEqual({
      A: 'SUCCEED',
      B: 'FAILED',
      C: 'SUCCEED',
      D: 'BLOCKED',
      E: 'SUCCEED',
    });
    expect(instanceOf(first, 'D')).toBeNull();
    expect(first.result).toContain('node B (B)');
    expect(first.finishedTime).not.toBeNull();

    // Refusals name the field: a node that did not fail, a node that does not exist, a run
    // that has not failed.
    const notFailed = await call(server, 'POST', JOB_CALLS.markNodeSuccess, {
      token: admin,
      lang: 'en',
      body: { id: first.id, nodeId: 'A' },
    });
    expect(notFailed.status).toBe(409);
    expect(notFailed.body.errors[0].field).toBe('nodeId');
    expect(notFailed.body.message).toMatch(/SUCCEED; only a failed or stopped node/);
    const unknown = await call(server, 'POST', JOB_CALLS.markNodeSuccess, {
      token: admin,
      lang: 'zh',
      body: { id: first.id, nodeId: 'Z' },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].field).toBe('nodeId');
    expect(unknown.body.message).toContain('没有节点 Z');

    // Retry: B passes now; A, C and E keep their instances, B and D run.
    await setJobPath(flaky, '/ok');
    const retried = await call(server, 'POST', JOB_CALLS.retryWfInstance, {
      token: admin,
      body: { id: first.id },
    });
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    const again = await until(first.id, ended);
    expect(again.status).toBe('SUCCEED');
    expect(Object.values(states(again))).toEqual(Array(5).fill('SUCCEED'));
    for (const kept of ['A', 'C', 'E'])
      expect(instanceOf(again, kept)).toBe(instanceOf(first, kept));
    expect(instanceOf(again, 'B')).not.toBe(instanceOf(first, 'B'));
    expect(instanceOf(again, 'D')).not.toBeNull();
    const notRetriable = await call(server, 'POST', JOB_CALLS.retryWfInstance, {
      token: admin,
      lang: 'en',
      body: { id: first.id },
    });
    expect(notRetriable.status).toBe(409);
    expect(notRetriable.body.errors[0].field).toBe('id');

    // Mark-success: B fails again in a new run; marked successful, D runs and the run succeeds.
    await setJobPath(flaky, '/fail');
    const second = await until(await run(workflowId), ended);
    expect(states(second)).toMatchObject({ B: 'FAILED', D: 'BLOCKED', E: 'SUCCEED' });
    const marked = await call(server, 'POST', JOB_CALLS.markNodeSuccess, {
      token: admin,
      body: { id: second.id, nodeId: 'B' },
    });
    expect(marked.status, JSON.stringify(marked.body)).toBe(200);
    const advanced = await until(second.id, ended);
    expect(advanced.status).toBe('SUCCEED');
    expect(states(advanced)).toMatchObject({ B: 'SUCCEED', D: 'SUCCEED' });
    expect(advanced.nodes.find((node) => node.nodeId === 'B')!.result).toMatch(/marked successful/);
    // Exactly once: one job instance per node start, never two for a node of a run.
    const { rows } = await server.db.systemStatement<{ node: string; count: number }>(
      `SELECT wf_node_id AS node, count(*)::int AS count FROM job_instance
        WHERE wf_instance_id = $1 GROUP BY 1 ORDER BY 1`,
      [second.id],
    );
    expect(rows).toEqual([
      { node: 'A', count: 1 },
      { node: 'B', count: 1 },
      { node: 'C', count: 1 },
      { node: 'D', count: 1 },
      { node: 'E', count: 1 },
    ]);
  }, 120_000);

  test('a cycle is refused naming its nodes, and nothing is saved', async () => {
    const before: WorkflowDag = { nodes: [job('A', ok)], edges: [] };
    const workflowId = await addWorkflow(before);
    const cyclic: WorkflowDag = {
      nodes: [job('A', ok), job('B', ok), job('C', ok)],
      edges: [edge('A', 'B'), edge('B', 'C'), edge('C', 'A')],
    };
    const refused = await call(server, 'PUT', JOB_CALLS.saveWorkflowDag, {
      token: admin,
      lang: 'en',
      body: { id: workflowId, dag: cyclic },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].field).toBe('dag');
    expect(refused.body.message).toBe(
      'DAG has a cycle: node A ("A") → node B ("B") → node C ("C")',
    );
    const missingJob = await call(server, 'PUT', JOB_CALLS.saveWorkflowDag, {
      token: admin,
      lang: 'en',
      body: { id: workflowId, dag: { nodes: [job('A', '999999999')], edges: [] } },
    });
    expect(missingJob.status).toBe(400);
    expect(missingJob.body.message).toContain('job 999999999, which is not a job here');
    const kept = await call(server, 'GET', JOB_CALLS.queryWorkflowDag, {
      token: admin,
      query: { id: workflowId },
    });
    expect(kept.body.data).toMatchObject({ ...before, id: workflowId });
    expect({ nodes: kept.body.data.nodes, edges: kept.body.data.edges }).toEqual(before);
    const { rows } = await server.db.systemStatement<{ dag_version: number }>(
      'SELECT dag_version FROM workflow_info WHERE id = $1',
      [workflowId],
    );
    expect(rows[0]!.dag_version).toBe(2); // made, then the one DAG saved
  });

  test('decision nodes take the branch the context chooses; the other branch is skipped', async () => {
    const decision = (id: string, key: string, value: string): WorkflowNode => ({
      id,
      type: 'decision',
      name: `decide ${id}`,
      enable: true,
      skipWhenFailed: false,
      condition: { key, operator: 'eq', value },
    });
    const dag: WorkflowDag = {
      nodes: [
        job('A', ok),
        // A's webhook answers 200: its output context says so.
        decision('byOutput', 'webhookStatus', '200'),
        job('T', ok),
        job('F', ok),
        job('F2', ok),
        decision('byParams', 'mode', 'quick'),
        job('Q', ok),
        job('N', ok),
      ],
      edges: [
        edge('A', 'byOutput'),
        edge('byOutput', 'T', 'true'),
        edge('byOutput', 'F', 'false'),
        edge('F', 'F2'),
        edge('byParams', 'Q', 'true'),
        edge('byParams', 'N', 'false'),
      ],
    };
    const workflowId = await addWorkflow(dag, { initParams: '{"mode":"full","district":"demo"}' });
    // The run's init params override the workflow's.
    const done = await until(await run(workflowId, '{"mode":"quick"}'), ended);
    expect(done.status).toBe('SUCCEED');
    expect(states(done)).toEqual({
      A: 'SUCCEED',
      byOutput: 'SUCCEED',
      T: 'SUCCEED',
      F: 'SKIPPED',
      F2: 'SKIPPED',
      byParams: 'SUCCEED',
      Q: 'SUCCEED',
      N: 'SKIPPED',
    });
    expect(done.context).toMatchObject({ mode: 'quick', district: 'demo', webhookStatus: 200 });
    const plain = await until(await run(workflowId), ended);
    expect(states(plain)).toMatchObject({ Q: 'SKIPPED', N: 'SUCCEED' });
    const bad = await call(server, 'POST', JOB_CALLS.runWorkflow, {
      token: admin,
      lang: 'en',
      body: { id: workflowId, initParams: '[1, 2]' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('initParams');
    expect(bad.body.message).toBe('Init params must be a JSON object');
  }, 90_000);

  test('skip-when-failed lets the successor run; a disabled node is skipped', async () => {
    const dag: WorkflowDag = {
      nodes: [
        job('X', fail, { skipWhenFailed: true }),
        job('Y', ok),
        job('off', fail, { enable: false }),
        job('Z', ok),
      ],
      edges: [edge('X', 'Y'), edge('off', 'Z')],
    };
    const done = await until(await run(await addWorkflow(dag)), ended);
    expect(states(done)).toEqual({ X: 'FAILED', Y: 'SUCCEED', off: 'SKIPPED', Z: 'SUCCEED' });
    expect(instanceOf(done, 'off')).toBeNull();
    // A failure the DAG tolerates does not fail the run.
    expect(done.status).toBe('SUCCEED');
  }, 60_000);

  test('stop ends the running job instance and the waiting nodes', async () => {
    const dag: WorkflowDag = {
      nodes: [job('S', slow), job('T', ok)],
      edges: [edge('S', 'T')],
    };
    const runId = await run(await addWorkflow(dag));
    const running = await until(
      runId,
      (one) => states(one).S === 'RUNNING' && !!instanceOf(one, 'S'),
    );
    const stopped = await call(server, 'POST', JOB_CALLS.stopWfInstance, {
      token: admin,
      body: { id: runId },
    });
    expect(stopped.status, JSON.stringify(stopped.body)).toBe(200);
    const after = await detail(runId);
    expect(after.status).toBe('STOPPED');
    expect(states(after)).toEqual({ S: 'STOPPED', T: 'STOPPED' });
    const { rows } = await server.db.systemStatement<{ status: string }>(
      'SELECT status FROM job_instance WHERE id = $1',
      [instanceOf(running, 'S')],
    );
    expect(rows[0]!.status).toBe('STOPPED');
    const twice = await call(server, 'POST', JOB_CALLS.stopWfInstance, {
      token: admin,
      lang: 'en',
      body: { id: runId },
    });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toMatch(/is STOPPED/);
  }, 60_000);

  test('a workflow is saved only with a usable schedule and JSON-object init params', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ initParams: 'not json' }, 'initParams'],
      [{ initParams: '"text"' }, 'initParams'],
      [{ timeExpressionType: 'CRON', timeExpression: '0 0 25 * * ?' }, 'timeExpression'],
      [{ timeExpressionType: 'WORKFLOW' }, 'timeExpressionType'],
    ];
    for (const [fields, field] of cases) {
      const refused = await call(server, 'POST', calls.add, {
        token: admin,
        lang: 'en',
        body: { wfName: 'refused', timeExpressionType: 'API', ...fields },
      });
      expect(refused.status, JSON.stringify(fields)).toBe(400);
      expect(
        (refused.body.errors as Array<{ field: string }>).map((one) => one.field),
        JSON.stringify(refused.body),
      ).toContain(field);
    }
  });

  test('a scheduled workflow fires once per occurrence; deleting it stops it', async () => {
    // On PostgreSQL a second node polls the same triggers: each occurrence still makes one run.
    const second =
      backend === 'postgres'
        ? await startSecondNode(server, { jobWebhookHosts: ['127.0.0.1'] })
        : undefined;
    try {
      await firesOnce();
    } finally {
      await second?.close();
    }
  }, 90_000);

  async function firesOnce() {
    // Saved on its schedule before its DAG: its fires skip, as a run by hand is refused.
    const emptyId = await addWorkflowInfo({
      timeExpressionType: 'CRON',
      timeExpression: '* * * * * ?',
    });
    const workflowId = await addWorkflow(
      { nodes: [job('only', ok)], edges: [] },
      { timeExpressionType: 'CRON', timeExpression: '* * * * * ?' },
    );
    const runs = async () =>
      (
        await server.db.systemStatement<{ id: string; expected: Date; trigger_type: string }>(
          `SELECT id::text, expected_trigger_time AS expected, trigger_type FROM workflow_instance
            WHERE workflow_id = $1 ORDER BY expected_trigger_time`,
          [workflowId],
        )
      ).rows;
    await expect
      .poll(async () => (await runs()).length, { timeout: 20_000 })
      .toBeGreaterThanOrEqual(3);
    const disabled = await call(server, 'POST', calls.status, {
      token: admin,
      body: { ids: [workflowId, emptyId], status: 0 },
    });
    expect(disabled.status).toBe(200);
    const made = await runs();
    const seconds = made.map((one) => new Date(one.expected).getTime());
    expect(new Set(seconds).size).toBe(made.length);
    expect(seconds.every((time) => time % 1000 === 0)).toBe(true);
    expect(made.every((one) => one.trigger_type === 'SCHEDULE')).toBe(true);
    const fired = await server.db.systemStatement<{ count: number }>(
      `SELECT count(*)::int AS count FROM scheduler_run WHERE kind = 'workflow.fire' AND key = $1
          AND state = 'succeeded'`,
      [`workflow:${workflowId}`],
    );
    expect(fired.rows[0]!.count).toBe(made.length);
    const byNode = await server.db.systemStatement<{ node: string; count: number }>(
      `SELECT node, count(*)::int AS count FROM scheduler_run WHERE key = $1 GROUP BY node`,
      [`workflow:${workflowId}`],
    );
    console.info(
      `workflow fire-once on ${backend}: ${made.length} runs, fired by ${JSON.stringify(byNode.rows)}`,
    );
    const { rows: nodes } = await server.db.systemStatement<{ count: number }>(
      `SELECT count(*)::int AS count FROM job_instance
        WHERE wf_instance_id = ANY ($1::bigint[])`,
      [made.map((one) => one.id)],
    );
    expect(nodes[0]!.count).toBe(made.length);

    const { rows: emptyFires } = await server.db.systemStatement<{ state: string; runs: number }>(
      `SELECT state, (SELECT count(*)::int FROM workflow_instance WHERE workflow_id = $2) AS runs
         FROM scheduler_run WHERE key = $1`,
      [`workflow:${emptyId}`, emptyId],
    );
    expect(emptyFires.length).toBeGreaterThan(0);
    expect(emptyFires.every((one) => one.state === 'skipped' && one.runs === 0)).toBe(true);

    // Deleting a workflow with a run under way stops the run's job instance and its trigger.
    const longOne = await addWorkflow(
      { nodes: [job('S', slow)], edges: [] },
      { timeExpressionType: 'CRON', timeExpression: '0 0 3 * * ?' },
    );
    const runId = await run(longOne);
    const running = await until(runId, (one) => !!instanceOf(one, 'S'));
    const removed = await call(server, 'POST', calls.delete, {
      token: admin,
      body: { id: longOne },
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    const { rows: instance } = await server.db.systemStatement<{ status: string }>(
      'SELECT status FROM job_instance WHERE id = $1',
      [instanceOf(running, 'S')],
    );
    expect(instance[0]!.status).toBe('STOPPED');
    const { rows: triggers } = await server.db.systemStatement<{ state: string }>(
      'SELECT state FROM scheduler_trigger WHERE key = $1',
      [`workflow:${longOne}`],
    );
    expect(triggers.map((one) => one.state)).not.toContain('waiting');
  }
});
