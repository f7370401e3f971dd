import type { InstanceState } from '@shuili/contract';
import {
  DeclineRun,
  PermanentRunFailure,
  scheduleOnce,
  type RunOutcome,
  type SchedulerRun,
} from '../scheduler/scheduler.service';
import {
  appendLog,
  endInstance,
  isEnded,
  JOB_TASK_KIND,
  lockInstance,
  taskTriggerKey,
  TAKEOVER_ALLOWANCE,
  type InstanceRow,
  type PendingMails,
} from './job-instances';
import type { JobSubTaskSpec } from './job-processor';
import type { JobRunner } from './job-runner';

/**
 * Broadcast, map and map-reduce instances (docs/jobs.md): the instance's work is split into
 * sub-tasks (`job_subtask`), each run from a trigger of its own (`job-task:<instance>:<task>`)
 * that any node may claim (a broadcast task: only its node). A node runs at most the job's
 * thread concurrency of one instance's tasks at once, and a map job spreads over at most its
 * max workers nodes; both are checked under the instance's row lock. The last task to end ends
 * the instance (map-reduce: after reducing the tasks' results).
 */

interface SubTaskRow {
  id: string;
  task_name: string;
  payload: Record<string, unknown>;
  status: InstanceState;
  node: string | null;
  attempts: number;
}

/** Makes an instance's sub-tasks (once: a node taking the dispatch over finds them) and their triggers. */
export async function dispatchSubTasks(runner: JobRunner, instance: InstanceRow): Promise<void> {
  const { db, processors } = runner.deps;
  const snapshot = instance.job_snapshot;
  let specs: JobSubTaskSpec[];
  if (snapshot.executeType === 'BROADCAST') {
    const nodes = await runner.aliveNodes();
    const chosen = snapshot.maxWorkerNum > 0 ? nodes.slice(0, snapshot.maxWorkerNum) : nodes;
    specs = chosen.map((node) => ({ name: `node:${node}`, payload: { node } }));
  } else {
    const processor = processors[snapshot.processorType];
    if (!processor.split)
      throw new PermanentRunFailure(`${snapshot.processorType} cannot be split`);
    const split = processor.split;
    const outcome = await runner.execute(
      instance,
      (ctx) =>
        split(ctx).then((tasks) => ({ result: '', tasks })) as Promise<{
          result: string;
          tasks: JobSubTaskSpec[];
        }>,
      { idempotencyKey: `job-instance:${instance.id}`, attempt: instance.running_times },
    );
    if ('stopped' in outcome) return;
    if ('error' in outcome) {
      const mails: PendingMails = [];
      await db.tenant(instance.tenant_id, (sql) =>
        endInstance(
          sql,
          instance.id,
          { status: 'FAILED', result: `split: ${outcome.error}` },
          mails,
        ),
      );
      await runner.mail(mails);
      return;
    }
    specs = (outcome.ok as unknown as { tasks: JobSubTaskSpec[] }).tasks;
  }
  await db.tenant(instance.tenant_id, async (sql) => {
    const current = await lockInstance(sql, instance.id);
    if (!current || isEnded(current.status)) return;
    for (const spec of specs) {
      // A retry by hand keeps what succeeded and runs the rest again.
      const { rows } = await sql.query<{ id: string; status: InstanceState }>(
        `INSERT INTO job_subtask (tenant_id, instance_id, task_name, payload)
         VALUES ($1, $2, $3, $4)
         ON CONFLICT (instance_id, task_name) DO UPDATE SET task_name = EXCLUDED.task_name
         RETURNING id::text, status`,
        [instance.tenant_id, instance.id, spec.name, JSON.stringify(spec.payload)],
      );
      const task = rows[0]!;
      if (isEnded(task.status)) continue;
      await scheduleOnce(sql, {
        tenantId: instance.tenant_id,
        kind: JOB_TASK_KIND,
        key: taskTriggerKey(instance.id, task.id),
        dueAt: new Date(),
        payload: { instanceId: instance.id, taskId: task.id },
        maxAttempts: snapshot.retries + 1 + TAKEOVER_ALLOWANCE,
        ...(snapshot.executeType === 'BROADCAST' ? { pinnedNode: String(spec.payload.node) } : {}),
      });
    }
    await appendLog(
      sql,
      instance.tenant_id,
      instance.id,
      runner.node,
      `${specs.length} sub-task${specs.length === 1 ? '' : 's'} dispatched`,
    );
  });
  if (specs.length === 0) await finishIfAllEnded(runner, instance.tenant_id, instance.id);
}

/** Runs one sub-task on this node (its instance's concurrency and worker limits allowing). */
export async function subTaskProcessor(
  runner: JobRunner,
  run: SchedulerRun<{ instanceId: string; taskId: string }>,
): Promise<RunOutcome> {
  const { db, processors } = runner.deps;
  const { instanceId, taskId } = run.payload;
  const claimed = await db.tenant(run.tenantId, async (sql) => {
    const instance = await lockInstance(sql, instanceId);
    if (!instance || isEnded(instance.status)) return undefined;
    const { rows } = await sql.query<SubTaskRow>(
      `SELECT id::text, task_name, payload, status, node, attempts FROM job_subtask
        WHERE id = $1 FOR UPDATE`,
      [taskId],
    );
    const task = rows[0];
    if (!task || isEnded(task.status)) return undefined;
    const snapshot = instance.job_snapshot;
    const { rows: load } = await sql.query<{ here: number; nodes: string[] }>(
      `SELECT count(*) FILTER (WHERE status = 'RUNNING' AND node = $2 AND id <> $3)::int AS here,
              coalesce(array_agg(DISTINCT node) FILTER (WHERE node IS NOT NULL), '{}') AS nodes
         FROM job_subtask WHERE instance_id = $1`,
      [instanceId, runner.node, taskId],
    );
    if (load[0]!.here >= snapshot.threadConcurrency) return 'busy' as const;
    const nodes = load[0]!.nodes;
    if (
      snapshot.executeType !== 'BROADCAST' &&
      snapshot.maxWorkerNum > 0 &&
      !nodes.includes(runner.node) &&
      nodes.length >= snapshot.maxWorkerNum
    )
      return 'busy' as const;
    await sql.query(
      `UPDATE job_subtask SET status = 'RUNNING', node = $2, attempts = attempts + 1,
              start_time = coalesce(start_time, now()) WHERE id = $1`,
      [taskId, runner.node],
    );
    await sql.query(
      `UPDATE job_instance SET status = 'RUNNING', updated_at = now()
        WHERE id = $1 AND status = 'WAITING_WORKER_RECEIVE'`,
      [instanceId],
    );
    return { instance, task: { ...task, attempts: task.attempts + 1 } };
  });
  if (claimed === 'busy') throw new DeclineRun(500);
  if (!claimed) return { state: 'skipped' };
  const { instance, task } = claimed;
  const processor = processors[instance.job_snapshot.processorType];
  const spec = { name: task.task_name, payload: task.payload };
  const runTask = processor.runTask;
  const outcome = await runner.execute(
    instance,
    (ctx) =>
      instance.job_snapshot.executeType === 'BROADCAST' || !runTask
        ? processor.run(ctx)
        : runTask(ctx, spec),
    { idempotencyKey: `job-task:${instance.id}:${task.id}`, attempt: task.attempts },
  );
  if ('stopped' in outcome) return { state: 'skipped' };
  const failed = 'error' in outcome;
  const final = !failed || task.attempts > instance.job_snapshot.retries;
  await db.tenant(run.tenantId, async (sql) => {
    await sql.query(
      `UPDATE job_subtask SET status = $2, result = $3,
              finished_time = CASE WHEN $4 THEN now() END
        WHERE id = $1 AND status = 'RUNNING'`,
      [
        taskId,
        failed ? (final ? 'FAILED' : 'WAITING_DISPATCH') : 'SUCCEED',
        failed ? outcome.error : outcome.ok.result,
        final,
      ],
    );
    await appendLog(
      sql,
      run.tenantId,
      instanceId,
      runner.node,
      `sub-task ${task.task_name} ${failed ? `failed: ${outcome.error}` : 'succeeded'}`,
      failed ? 'warn' : 'info',
    );
  });
  if (final) await finishIfAllEnded(runner, run.tenantId, instanceId);
  if (failed && !final) throw new Error(outcome.error);
  if (failed) throw new PermanentRunFailure(outcome.error);
  return {};
}

/** Ends an instance whose sub-tasks have all ended: map-reduce reduces their results first. */
export async function finishIfAllEnded(
  runner: JobRunner,
  tenantId: string,
  instanceId: string,
): Promise<void> {
  const { db, processors } = runner.deps;
  const state = await db.tenant(tenantId, async (sql) => {
    const instance = await lockInstance(sql, instanceId);
    if (!instance || isEnded(instance.status)) return undefined;
    const { rows } = await sql.query<{
      task_name: string;
      status: InstanceState;
      result: string | null;
    }>(`SELECT task_name, status, result FROM job_subtask WHERE instance_id = $1 ORDER BY id`, [
      instanceId,
    ]);
    if (rows.some((row) => !isEnded(row.status))) return undefined;
    return { instance, tasks: rows };
  });
  if (!state) return;
  const { instance, tasks } = state;
  const failed = tasks.filter((task) => task.status !== 'SUCCEED');
  let end: { status: 'SUCCEED' | 'FAILED'; result: string; context?: Record<string, unknown> };
  const reduce = processors[instance.job_snapshot.processorType].reduce;
  if (instance.job_snapshot.executeType === 'MAP_REDUCE' && reduce) {
    const outcome = await runner.execute(
      instance,
      (ctx) =>
        reduce(
          ctx,
          tasks.map((task) => ({
            name: task.task_name,
            ok: task.status === 'SUCCEED',
            result: task.result,
          })),
        ),
      { idempotencyKey: `job-instance:${instance.id}:reduce`, attempt: instance.running_times },
    );
    if ('stopped' in outcome) return;
    end =
      'ok' in outcome && failed.length === 0
        ? { status: 'SUCCEED', result: outcome.ok.result, context: outcome.ok.context }
        : {
            status: 'FAILED',
            result:
              'error' in outcome
                ? `reduce: ${outcome.error}`
                : `${failed.length} of ${tasks.length} sub-tasks failed; reduced: ${'ok' in outcome ? outcome.ok.result : ''}`,
          };
  } else
    end =
      failed.length === 0
        ? { status: 'SUCCEED', result: `${tasks.length} sub-tasks succeeded` }
        : {
            status: 'FAILED',
            result: `${failed.length} of ${tasks.length} sub-tasks failed: ${failed
              .slice(0, 5)
              .map((task) => `${task.task_name}: ${task.result ?? task.status}`)
              .join('; ')}`,
          };
  const mails: PendingMails = [];
  await db.tenant(tenantId, (sql) => endInstance(sql, instanceId, end, mails));
  await runner.mail(mails);
}

/**
 * Broadcast tasks pinned to a node that is gone (stopped, or unheard of for twice the alive
 * window) can never run: they fail, so their instance ends instead of waiting forever.
 */
export async function sweepLostNodeTasks(runner: JobRunner, aliveMs: number): Promise<void> {
  const { db } = runner.deps;
  const { rows } = await db.system((sql) =>
    sql.query<{ id: string; tenant_id: string; instance_id: string; node: string }>(
      `SELECT s.id::text, s.tenant_id::text, s.instance_id::text, t.pinned_node AS node
         FROM scheduler_trigger t
         JOIN job_subtask s ON t.key = 'job-task:' || s.instance_id || ':' || s.id
                           AND t.tenant_id = s.tenant_id
        WHERE t.kind = $1 AND t.state IN ('waiting', 'running') AND t.pinned_node IS NOT NULL
          AND s.status IN ('WAITING_DISPATCH', 'WAITING_WORKER_RECEIVE', 'RUNNING')
          AND NOT EXISTS (SELECT 1 FROM scheduler_node n WHERE n.node = t.pinned_node
                            AND n.heartbeat_at > now() - make_interval(secs => $2))
        LIMIT 100`,
      [JOB_TASK_KIND, (2 * aliveMs) / 1000],
    ),
  );
  for (const lost of rows) {
    await db.tenant(lost.tenant_id, async (sql) => {
      await sql.query(
        `UPDATE job_subtask SET status = 'FAILED', finished_time = now(),
                result = $2 WHERE id = $1 AND status IN ('WAITING_DISPATCH', 'WAITING_WORKER_RECEIVE', 'RUNNING')`,
        [lost.id, `node ${lost.node} was lost before it ran its task`],
      );
      await sql.query(
        `UPDATE scheduler_trigger SET state = 'cancelled', lease_owner = NULL, lease_until = NULL
          WHERE key = $1`,
        [taskTriggerKey(lost.instance_id, lost.id)],
      );
    });
    await finishIfAllEnded(runner, lost.tenant_id, lost.instance_id);
  }
}
