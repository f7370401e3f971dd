import {
  decide,
  inEdgesOf,
  successorsOf,
  type WfInstanceState,
  type WfNodeState,
  type WorkflowDag,
  type WorkflowEdge,
  type WorkflowNode,
} from '@shuili/contract';
import type { Sql } from '../../../db/database';
import { scheduleOnce } from '../../scheduler/scheduler.service';
import { noticeFailure } from '../job-alarms';
import {
  createJobInstance,
  stopJobInstance,
  type EndedInstance,
  type PendingMails,
} from '../job-instances';
import { scheduleFixedDelay } from '../job-schedule';

/**
 * The DAG workflow engine (docs/jobs.md "Workflows"). Every function runs in the caller's
 * transaction with the workflow instance's row locked (FOR UPDATE), so one writer at a time
 * decides what a run does next, and a node's end commits together with its successors' start.
 *
 * A node starts when every in-edge is settled (its source succeeded, was skipped for being
 * disabled, failed with skipWhenFailed, or is a decision's branch not taken); it is BLOCKED when
 * an in-edge comes from a failed, stopped or blocked node. So **a failed node blocks only its own
 * descendants**: the other branches run on, and the run ends once nothing can run any more.
 */

export const WORKFLOW_FIRE_KIND = 'workflow.fire';
export const WORKFLOW_MAIL_KIND = 'workflow.mail';
export const workflowTriggerKey = (workflowId: string) => `workflow:${workflowId}`;

/** A skipped node's result: disabled (counts as done) or on a branch not taken (dead). */
export const SKIP_DISABLED = 'skipped: node disabled';
export const SKIP_BRANCH = 'skipped: on a branch not taken';

const OPEN_WF_STATES: readonly WfInstanceState[] = ['WAITING', 'RUNNING'];

interface WfRow {
  id: string;
  tenant_id: string;
  workflow_id: string;
  status: WfInstanceState;
  trigger_type: string;
  context: Record<string, unknown>;
  dag: WorkflowDag;
}

interface NodeRow {
  id: string;
  node_id: string;
  status: WfNodeState;
  result: string | null;
  job_instance_id: string | null;
}

/** A workflow instance, locked for this transaction. */
export async function lockWfInstance(sql: Sql, id: string): Promise<WfRow | undefined> {
  const { rows } = await sql.query<WfRow>(
    `SELECT id::text, tenant_id::text, workflow_id::text, status, trigger_type, context, dag
       FROM workflow_instance WHERE id = $1 FOR UPDATE`,
    [id],
  );
  return rows[0];
}

async function nodeRows(sql: Sql, wfInstanceId: string): Promise<Map<string, NodeRow>> {
  const { rows } = await sql.query<NodeRow>(
    `SELECT id::text, node_id, status, result, job_instance_id::text
       FROM workflow_node_instance WHERE wf_instance_id = $1`,
    [wfInstanceId],
  );
  return new Map(rows.map((row) => [row.node_id, row]));
}

/** A JSON object from text (init params); anything else is empty (checked where it is entered). */
export function jsonObject(text: string | null | undefined): Record<string, unknown> {
  if (!text?.trim()) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** E-mails of failures go out from a one-off trigger: it exists exactly when this commits. */
export async function queueMails(sql: Sql, tenantId: string, mails: PendingMails): Promise<void> {
  if (mails.length === 0) return;
  await scheduleOnce(sql, {
    tenantId,
    kind: WORKFLOW_MAIL_KIND,
    key: `workflow-mail:${Date.now()}:${Math.random().toString(36).slice(2, 10)}`,
    dueAt: new Date(),
    payload: { mails: mails.splice(0) },
    maxAttempts: 1,
  });
}

export interface NewWfInstance {
  tenantId: string;
  workflowId: string;
  triggerType: 'API' | 'SCHEDULE';
  expectedTriggerTime: Date;
  /** The run's init params (a JSON object as text), over the workflow's. */
  initParams?: string | null;
}

/**
 * Whether a workflow may start a run now: its status (1 enabled) and how many nodes its DAG has
 * (an empty one makes no run, by hand or on its schedule). Undefined when it is not there.
 */
export async function workflowStartable(
  sql: Sql,
  workflowId: string,
): Promise<{ status: number; nodes: number } | undefined> {
  const { rows } = await sql.query<{ status: number; nodes: number }>(
    `SELECT status, coalesce(jsonb_array_length(dag -> 'nodes'), 0) AS nodes
       FROM workflow_info WHERE id = $1`,
    [workflowId],
  );
  return rows[0];
}

/**
 * Starts a run: the DAG snapshot, the context from the init params (the workflow's, the run's
 * over them), a WAITING row for every node, then the nodes that can start. Answers undefined
 * when the workflow is gone or this occurrence of its schedule already has its run (the
 * fire-once index). With maxWfInstanceNum runs open already, the run is made FAILED, saying so.
 */
export async function startWorkflowInstance(
  sql: Sql,
  input: NewWfInstance,
  mails: PendingMails,
): Promise<{ id: string; status: WfInstanceState } | undefined> {
  const { rows: found } = await sql.query<{
    wf_name: string;
    dag: WorkflowDag;
    dag_version: number;
    init_params: string | null;
    max_wf_instance_num: number | null;
  }>(
    `SELECT wf_name, dag, dag_version, init_params, max_wf_instance_num FROM workflow_info
      WHERE id = $1 FOR UPDATE`,
    [input.workflowId],
  );
  const workflow = found[0];
  if (!workflow) return undefined;
  const initParams = input.initParams?.trim() ? input.initParams : workflow.init_params;
  const context = { ...jsonObject(workflow.init_params), ...jsonObject(input.initParams) };
  let status: WfInstanceState = 'RUNNING';
  let result: string | null = null;
  const max = Number(workflow.max_wf_instance_num ?? 0);
  if (max > 0) {
    const { rows } = await sql.query<{ open: number }>(
      `SELECT count(*)::int AS open FROM workflow_instance
        WHERE workflow_id = $1 AND status = ANY ($2::text[])`,
      [input.workflowId, OPEN_WF_STATES],
    );
    if (rows[0]!.open >= max) {
      status = 'FAILED';
      result = `too many instances: ${rows[0]!.open} running, at most ${max}`;
    }
  }
  const { rows } = await sql.query<{ id: string }>(
    `INSERT INTO workflow_instance (tenant_id, workflow_id, status, trigger_type,
                                    expected_trigger_time, start_time, finished_time, init_params,
                                    context, dag, dag_version, result)
     VALUES ($1, $2, $3, $4, $5, now(), CASE WHEN $3 = 'FAILED' THEN now() END, $6, $7, $8, $9, $10)
     ON CONFLICT (workflow_id, expected_trigger_time) WHERE trigger_type = 'SCHEDULE' DO NOTHING
     RETURNING id::text`,
    [
      input.tenantId,
      input.workflowId,
      status,
      input.triggerType,
      input.expectedTriggerTime,
      initParams ?? null,
      JSON.stringify(context),
      JSON.stringify(workflow.dag),
      workflow.dag_version,
      result,
    ],
  );
  const id = rows[0]?.id;
  if (!id) return undefined;
  if (status === 'FAILED') {
    mails.push(
      ...(await noticeFailure(sql, {
        tenantId: input.tenantId,
        linkTable: 'workflow_alarm_user',
        ownerColumn: 'workflow_id',
        ownerId: input.workflowId,
        kind: 'workflow',
        name: workflow.wf_name,
        instanceId: id,
        reason: result!,
      })),
    );
    return { id, status };
  }
  for (const node of workflow.dag.nodes)
    await sql.query(
      `INSERT INTO workflow_node_instance (tenant_id, wf_instance_id, node_id, node_name, job_id,
                                           status)
       VALUES ($1, $2, $3, $4, (SELECT id FROM job_info WHERE id = $5::bigint), 'WAITING')
       ON CONFLICT (wf_instance_id, node_id) DO NOTHING`,
      [input.tenantId, id, node.id, node.name, node.type === 'job' ? (node.jobId ?? null) : null],
    );
  await advanceWorkflow(sql, id, mails);
  const { rows: now } = await sql.query<{ status: WfInstanceState }>(
    'SELECT status FROM workflow_instance WHERE id = $1',
    [id],
  );
  return { id, status: now[0]!.status };
}

type Readiness = 'pending' | 'blocked' | 'dead' | 'ready';

/** Whether a waiting node can start, from the states of its in-edges' sources. */
function readiness(
  edges: readonly WorkflowEdge[],
  nodes: ReadonlyMap<string, WorkflowNode>,
  states: ReadonlyMap<string, NodeRow>,
): Readiness {
  if (edges.length === 0) return 'ready';
  let pending = false;
  let live = false;
  for (const edge of edges) {
    const source = nodes.get(edge.from);
    const row = states.get(edge.from);
    switch (row?.status) {
      case 'SUCCEED':
        // A decision's result is the branch it took ('true' or 'false').
        if (source?.type !== 'decision' || row.result === edge.branch) live = true;
        break;
      case 'SKIPPED':
        if (row.result !== SKIP_BRANCH) live = true;
        break;
      case 'FAILED':
        if (!source?.skipWhenFailed) return 'blocked';
        live = true;
        break;
      case 'STOPPED':
      case 'BLOCKED':
        return 'blocked';
      default:
        pending = true;
    }
  }
  if (pending) return 'pending';
  return live ? 'ready' : 'dead';
}

/** Moves a waiting node on (compare-and-set: only from WAITING). Answers whether it moved. */
async function settleWaiting(
  sql: Sql,
  row: NodeRow,
  status: WfNodeState,
  result: string | null,
): Promise<boolean> {
  const { rows } = await sql.query(
    `UPDATE workflow_node_instance SET status = $2, result = $3,
            start_time = coalesce(start_time, now()), finished_time = now(), updated_at = now()
      WHERE id = $1 AND status = 'WAITING' RETURNING 1`,
    [row.id, status, result],
  );
  if (rows[0]) row.status = status;
  if (rows[0]) row.result = result;
  return rows.length > 0;
}

async function startNode(
  sql: Sql,
  wf: WfRow,
  node: WorkflowNode,
  row: NodeRow,
  mails: PendingMails,
): Promise<boolean> {
  if (node.type === 'decision')
    return settleWaiting(sql, row, 'SUCCEED', String(decide(node.condition!, wf.context)));
  if (!node.enable) return settleWaiting(sql, row, 'SKIPPED', SKIP_DISABLED);
  const { rows } = await sql.query(
    `UPDATE workflow_node_instance SET status = 'RUNNING', start_time = now(),
            finished_time = NULL, result = NULL, job_instance_id = NULL, updated_at = now()
      WHERE id = $1 AND status = 'WAITING' RETURNING 1`,
    [row.id],
  );
  if (!rows[0]) return false;
  row.status = 'RUNNING';
  const made = await createJobInstance(
    sql,
    {
      tenantId: wf.tenant_id,
      jobId: node.jobId!,
      triggerType: 'WORKFLOW',
      expectedTriggerTime: new Date(),
      instanceParams: node.params?.trim() ? node.params : null,
      wfInstanceId: wf.id,
      wfNodeId: node.id,
    },
    mails,
  );
  if (made)
    await sql.query('UPDATE workflow_node_instance SET job_instance_id = $2 WHERE id = $1', [
      row.id,
      made.id,
    ]);
  else
    await sql.query(
      `UPDATE workflow_node_instance SET status = 'FAILED', finished_time = now(), result = $2
        WHERE id = $1 AND status = 'RUNNING'`,
      [row.id, `job ${node.jobId} no longer exists`],
    );
  return true;
}

/**
 * Starts, skips or blocks every waiting node that can be decided now (until nothing changes),
 * then ends the run when no node is waiting or running. The instance must be locked.
 */
export async function advanceWorkflow(
  sql: Sql,
  wfInstanceId: string,
  mails: PendingMails,
): Promise<void> {
  // Each pass decides at least one node, so a DAG of n nodes settles within n passes.
  for (let pass = 0; pass <= 1000; pass += 1) {
    const wf = await lockWfInstance(sql, wfInstanceId);
    if (!wf || wf.status !== 'RUNNING') return;
    const states = await nodeRows(sql, wfInstanceId);
    const nodes = new Map(wf.dag.nodes.map((node) => [node.id, node]));
    const incoming = inEdgesOf(wf.dag);
    let changed = false;
    for (const node of wf.dag.nodes) {
      const row = states.get(node.id);
      if (row?.status !== 'WAITING') continue;
      const verdict = readiness(incoming.get(node.id) ?? [], nodes, states);
      if (verdict === 'pending') continue;
      const moved =
        verdict === 'blocked'
          ? await settleWaiting(sql, row, 'BLOCKED', 'blocked: a predecessor did not succeed')
          : verdict === 'dead'
            ? await settleWaiting(sql, row, 'SKIPPED', SKIP_BRANCH)
            : await startNode(sql, wf, node, row, mails);
      changed ||= moved;
    }
    if (!changed) break;
  }
  await finishIfDone(sql, wfInstanceId, mails);
}

/** Ends a running instance whose nodes have all ended: SUCCEED, or FAILED naming the nodes. */
async function finishIfDone(sql: Sql, wfInstanceId: string, mails: PendingMails): Promise<void> {
  const { rows: nodes } = await sql.query<{
    node_id: string;
    node_name: string | null;
    status: WfNodeState;
  }>(
    `SELECT node_id, node_name, status FROM workflow_node_instance WHERE wf_instance_id = $1
      ORDER BY id`,
    [wfInstanceId],
  );
  if (nodes.some((node) => node.status === 'WAITING' || node.status === 'RUNNING')) return;
  const { rows: snapshot } = await sql.query<{ dag: WorkflowDag }>(
    'SELECT dag FROM workflow_instance WHERE id = $1',
    [wfInstanceId],
  );
  // A failure the DAG tolerates (skipWhenFailed) lets the run succeed, as its successors did.
  const tolerant = new Set(
    (snapshot[0]?.dag.nodes ?? []).filter((node) => node.skipWhenFailed).map((node) => node.id),
  );
  const named = (status: WfNodeState, tolerated = false) =>
    nodes
      .filter((node) => node.status === status)
      .filter((node) => status !== 'FAILED' || tolerant.has(node.node_id) === tolerated)
      .map((node) => `${node.node_name ?? node.node_id} (${node.node_id})`);
  const bad = (['FAILED', 'STOPPED', 'BLOCKED'] as const)
    .map((status) => [status, named(status)] as const)
    .filter(([, list]) => list.length > 0);
  const status: WfInstanceState = bad.length ? 'FAILED' : 'SUCCEED';
  const tolerated = named('FAILED', true);
  const result = bad.length
    ? bad.map(([state, list]) => `${state.toLowerCase()}: ${list.join(', ')}`).join('; ')
    : `${nodes.length} nodes ended: ${named('SUCCEED').length} succeeded, ${named('SKIPPED').length} skipped` +
      (tolerated.length ? `, failed and skipped over: ${tolerated.join(', ')}` : '');
  const { rows } = await sql.query<{
    tenant_id: string;
    workflow_id: string;
    trigger_type: string;
  }>(
    `UPDATE workflow_instance SET status = $2, result = $3, finished_time = now(), updated_at = now()
      WHERE id = $1 AND status = 'RUNNING'
      RETURNING tenant_id::text, workflow_id::text, trigger_type`,
    [wfInstanceId, status, result],
  );
  const ended = rows[0];
  if (!ended) return;
  const { rows: workflows } = await sql.query<{
    wf_name: string;
    time_expression_type: string;
    time_expression: string | null;
    status: number;
  }>(
    'SELECT wf_name, time_expression_type, time_expression, status FROM workflow_info WHERE id = $1',
    [ended.workflow_id],
  );
  const workflow = workflows[0];
  if (!workflow) return;
  if (status === 'FAILED')
    mails.push(
      ...(await noticeFailure(sql, {
        tenantId: ended.tenant_id,
        linkTable: 'workflow_alarm_user',
        ownerColumn: 'workflow_id',
        ownerId: ended.workflow_id,
        kind: 'workflow',
        name: workflow.wf_name,
        instanceId: wfInstanceId,
        reason: result,
      })),
    );
  // Fixed delay: the next run is due the delay after this one ended.
  if (
    ended.trigger_type === 'SCHEDULE' &&
    workflow.time_expression_type === 'FIXED_DELAY' &&
    workflow.status === 1 &&
    workflow.time_expression
  )
    await scheduleFixedDelay(sql, {
      tenantId: ended.tenant_id,
      kind: WORKFLOW_FIRE_KIND,
      key: workflowTriggerKey(ended.workflow_id),
      payload: { workflowId: ended.workflow_id },
      delayMs: Number(workflow.time_expression),
    });
}

/**
 * A job instance ended (onInstanceEnded, in its ending transaction): its node takes its state
 * and result, a success's context joins the run's, and the run advances. A node not running
 * that instance (a stopped run's, or one already told) changes nothing.
 */
export async function onJobInstanceEnded(sql: Sql, ended: EndedInstance): Promise<void> {
  if (!ended.wfInstanceId || !ended.wfNodeId) return;
  const wf = await lockWfInstance(sql, ended.wfInstanceId);
  if (!wf) return;
  const status: WfNodeState =
    ended.status === 'SUCCEED' ? 'SUCCEED' : ended.status === 'FAILED' ? 'FAILED' : 'STOPPED';
  const { rows } = await sql.query(
    `UPDATE workflow_node_instance SET status = $3, result = $4, finished_time = now(),
            job_instance_id = $5, updated_at = now()
      WHERE wf_instance_id = $1 AND node_id = $2 AND status = 'RUNNING'
        AND (job_instance_id IS NULL OR job_instance_id = $5)
      RETURNING 1`,
    [wf.id, ended.wfNodeId, status, ended.result, ended.instanceId],
  );
  if (!rows[0]) return;
  if (status === 'SUCCEED' && ended.context && Object.keys(ended.context).length > 0)
    await sql.query(
      `UPDATE workflow_instance SET context = context || $2::jsonb, updated_at = now() WHERE id = $1`,
      [wf.id, JSON.stringify(ended.context)],
    );
  const mails: PendingMails = [];
  await advanceWorkflow(sql, wf.id, mails);
  await queueMails(sql, wf.tenant_id, mails);
}

/** Why a call on a run was refused: the run's or the node's state, or an unknown node. */
export type WfRefusal =
  | { refused: 'missing' }
  | { refused: 'state'; status: WfInstanceState }
  | { refused: 'unknownNode' }
  | { refused: 'nodeState'; status: WfNodeState };

/** Stops a running instance: its running job instances, its waiting nodes, itself. */
export async function stopWorkflowInstance(
  sql: Sql,
  id: string,
  by: string,
  mails: PendingMails,
): Promise<WfRefusal | undefined> {
  // The running job instances first, then the run: the order a job instance's end takes (its
  // row, then the run's in the listener), so a stop and an end cannot deadlock.
  await sql.query(
    `SELECT id FROM job_instance WHERE id IN (
       SELECT job_instance_id FROM workflow_node_instance
        WHERE wf_instance_id = $1 AND status = 'RUNNING')
      ORDER BY id FOR UPDATE`,
    [id],
  );
  const wf = await lockWfInstance(sql, id);
  if (!wf) return { refused: 'missing' };
  if (!OPEN_WF_STATES.includes(wf.status)) return { refused: 'state', status: wf.status };
  // Stopped first, so the job instances' ends below record their nodes and advance nothing.
  await sql.query(
    `UPDATE workflow_instance SET status = 'STOPPED', finished_time = now(), result = $2,
            updated_at = now() WHERE id = $1`,
    [id, `stopped by ${by}`],
  );
  for (const row of (await nodeRows(sql, id)).values())
    if (row.status === 'RUNNING' && row.job_instance_id)
      await stopJobInstance(sql, row.job_instance_id, by, mails);
  await sql.query(
    `UPDATE workflow_node_instance SET status = 'STOPPED', finished_time = now(),
            result = coalesce(result, $2), updated_at = now()
      WHERE wf_instance_id = $1 AND status IN ('WAITING', 'RUNNING')`,
    [id, `stopped by ${by}`],
  );
  return undefined;
}

/** Runs a failed instance's failed, stopped and blocked nodes again; what succeeded stays. */
export async function retryWorkflowInstance(
  sql: Sql,
  id: string,
  mails: PendingMails,
): Promise<WfRefusal | undefined> {
  const wf = await lockWfInstance(sql, id);
  if (!wf) return { refused: 'missing' };
  if (wf.status !== 'FAILED') return { refused: 'state', status: wf.status };
  await sql.query(
    `UPDATE workflow_node_instance SET status = 'WAITING', result = NULL, start_time = NULL,
            finished_time = NULL, job_instance_id = NULL, updated_at = now()
      WHERE wf_instance_id = $1 AND status IN ('FAILED', 'STOPPED', 'BLOCKED')`,
    [id],
  );
  await reopen(sql, id);
  await advanceWorkflow(sql, id, mails);
  return undefined;
}

async function reopen(sql: Sql, id: string): Promise<void> {
  await sql.query(
    `UPDATE workflow_instance SET status = 'RUNNING', finished_time = NULL, result = NULL,
            updated_at = now() WHERE id = $1`,
    [id],
  );
}

/**
 * Marks a failed or stopped node successful: the nodes it blocked wait again and the run goes
 * on (a node still blocked by another failure is blocked again).
 */
export async function markWorkflowNodeSuccess(
  sql: Sql,
  id: string,
  nodeId: string,
  by: string,
  mails: PendingMails,
): Promise<WfRefusal | undefined> {
  const wf = await lockWfInstance(sql, id);
  if (!wf) return { refused: 'missing' };
  if (wf.status !== 'RUNNING' && wf.status !== 'FAILED')
    return { refused: 'state', status: wf.status };
  const row = (await nodeRows(sql, id)).get(nodeId);
  if (!row) return { refused: 'unknownNode' };
  if (row.status !== 'FAILED' && row.status !== 'STOPPED')
    return { refused: 'nodeState', status: row.status };
  await sql.query(
    `UPDATE workflow_node_instance SET status = 'SUCCEED', result = $2,
            finished_time = coalesce(finished_time, now()), updated_at = now() WHERE id = $1`,
    [
      row.id,
      `marked successful by ${by}${row.result ? ` (was: ${row.result.slice(0, 500)})` : ''}`,
    ],
  );
  const next = successorsOf(wf.dag);
  const descendants = new Set<string>();
  const queue = [...(next.get(nodeId) ?? [])];
  while (queue.length) {
    const one = queue.shift()!;
    if (descendants.has(one)) continue;
    descendants.add(one);
    queue.push(...(next.get(one) ?? []));
  }
  await sql.query(
    `UPDATE workflow_node_instance SET status = 'WAITING', result = NULL, start_time = NULL,
            finished_time = NULL, updated_at = now()
      WHERE wf_instance_id = $1 AND node_id = ANY ($2::text[]) AND status = 'BLOCKED'`,
    [id, [...descendants]],
  );
  await reopen(sql, id);
  await advanceWorkflow(sql, id, mails);
  return undefined;
}
