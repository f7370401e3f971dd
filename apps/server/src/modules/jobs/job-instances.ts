import {
  ENDED_INSTANCE_STATES,
  isSecondlyJob,
  SECONDLY_JOB_HISTORY,
  parseProcessorParams,
  type ExecuteType,
  type InstanceState,
  type InstanceTrigger,
  type ProcessorType,
  type TimeExpressionType,
} from '@shuili/contract';
import type { Sql } from '../../db/database';
import { cancel, cancelPrefix, scheduleOnce } from '../scheduler/scheduler.service';
import { noticeFailure } from './job-alarms';
import { scheduleFixedDelay } from './job-schedule';

/**
 * Job instances (spec /taskinstance): made by a job's trigger, a call or a workflow node, each
 * run from a one-off trigger of its own (`job-instance:<id>`, kind {@link JOB_RUN_KIND}) that
 * the scheduler core leases to one node. Every function here runs in the caller's transaction.
 */

export const JOB_FIRE_KIND = 'job.fire';
export const JOB_RUN_KIND = 'job.run';
export const JOB_TASK_KIND = 'job.task';
export const JOB_TIMEOUT_KIND = 'job.timeout';
export const jobTriggerKey = (jobId: string) => `job:${jobId}`;
export const instanceTriggerKey = (instanceId: string) => `job-instance:${instanceId}`;
export const taskTriggerKey = (instanceId: string, taskId: string) =>
  `job-task:${instanceId}:${taskId}`;
export const timeoutTriggerKey = (instanceId: string) => `job-timeout:${instanceId}`;

/**
 * A run taken over from a node that died is not a failure, so the trigger allows this many
 * takeovers beyond the job's retries; the instance counts real failures itself.
 */
export const TAKEOVER_ALLOWANCE = 3;

/** The job as an instance keeps it: edits of the job never change a run under way. */
export interface JobSnapshot {
  jobName: string;
  processorType: ProcessorType;
  executeType: ExecuteType;
  timeExpressionType: TimeExpressionType;
  params: Record<string, unknown>;
  timeout: number;
  retries: number;
  threadConcurrency: number;
  maxWorkerNum: number;
  minCpuCores: number;
  minMemoryGb: number;
  minDiskGb: number;
}

export interface InstanceRow {
  id: string;
  tenant_id: string;
  job_id: string;
  status: InstanceState;
  trigger_type: InstanceTrigger;
  expected_trigger_time: Date;
  trigger_time: Date | null;
  start_time: Date | null;
  finished_time: Date | null;
  running_times: number;
  failed_attempts: number;
  task_tracker_address: string | null;
  instance_params: string | null;
  result: string | null;
  wf_instance_id: string | null;
  wf_node_id: string | null;
  job_snapshot: JobSnapshot;
}

export const INSTANCE_COLUMNS = `i.id::text, i.tenant_id::text, i.job_id::text, i.status,
  i.trigger_type, i.expected_trigger_time, i.trigger_time, i.start_time, i.finished_time,
  i.running_times, i.failed_attempts, i.task_tracker_address, i.instance_params, i.result,
  i.wf_instance_id::text, i.wf_node_id, i.job_snapshot`;

export const OPEN_STATES: readonly InstanceState[] = [
  'WAITING_DISPATCH',
  'WAITING_WORKER_RECEIVE',
  'RUNNING',
];

export const isEnded = (status: InstanceState) => ENDED_INSTANCE_STATES.includes(status);

/** An instance that ended, as its listeners hear of it (the workflow engine). */
export interface EndedInstance {
  tenantId: string;
  instanceId: string;
  jobId: string;
  status: InstanceState;
  result: string | null;
  /** What a workflow node passes on to its successors. */
  context: Record<string, unknown> | undefined;
  wfInstanceId: string | null;
  wfNodeId: string | null;
}

export type InstanceEndListener = (sql: Sql, ended: EndedInstance) => Promise<void>;

/**
 * Who hears of ended instances, in the ending transaction: the workflow engine advances its
 * DAG there, so a node's end and its successors' start commit together.
 */
const endListeners: InstanceEndListener[] = [];

export function onInstanceEnded(listener: InstanceEndListener): () => void {
  endListeners.push(listener);
  return () => {
    const index = endListeners.indexOf(listener);
    if (index >= 0) endListeners.splice(index, 1);
  };
}

/** E-mails to send once the transaction that made them committed (failures' alarm users). */
export type PendingMails = Array<{ recipient: string; subject: string; body: string }>;

interface JobRow {
  id: string;
  job_name: string;
  processor_type: ProcessorType;
  execute_type: ExecuteType;
  time_expression_type: TimeExpressionType;
  time_expression: string | null;
  job_params: string | null;
  max_instance_num: number;
  thread_concurrency: number;
  max_worker_num: number;
  timeout: number;
  retries: number;
  min_cpu_cores: number;
  min_memory_gb: number;
  min_disk_gb: number;
  status: number;
}

/** A job's row, locked so instances of one job are made one at a time (maxInstanceNum). */
export async function lockJob(sql: Sql, jobId: string): Promise<JobRow | undefined> {
  const { rows } = await sql.query<JobRow>(
    `SELECT id::text, job_name, processor_type, execute_type, time_expression_type,
            time_expression, job_params, max_instance_num, thread_concurrency, max_worker_num,
            timeout, retries, min_cpu_cores, min_memory_gb, min_disk_gb, status
       FROM job_info WHERE id = $1 FOR UPDATE`,
    [jobId],
  );
  return rows[0];
}

function snapshotOf(job: JobRow): JobSnapshot {
  const parsed = parseProcessorParams(job.processor_type, job.job_params);
  return {
    jobName: job.job_name,
    processorType: job.processor_type,
    executeType: job.execute_type,
    timeExpressionType: job.time_expression_type,
    // Checked when the job was saved; a declaration changed since leaves the defaults.
    params: 'params' in parsed ? parsed.params : {},
    timeout: Number(job.timeout ?? 0),
    retries: Number(job.retries ?? 0),
    threadConcurrency: Math.max(1, Number(job.thread_concurrency ?? 5)),
    maxWorkerNum: Number(job.max_worker_num ?? 0),
    minCpuCores: Number(job.min_cpu_cores ?? 0),
    minMemoryGb: Number(job.min_memory_gb ?? 0),
    minDiskGb: Number(job.min_disk_gb ?? 0),
  };
}

export interface NewInstance {
  tenantId: string;
  jobId: string;
  triggerType: InstanceTrigger;
  /** The occurrence (a schedule's fire time; now for a call or a workflow node). */
  expectedTriggerTime: Date;
  instanceParams?: string | null;
  wfInstanceId?: string | null;
  wfNodeId?: string | null;
}

/**
 * Makes an instance and its run trigger. Answers undefined when the job is gone, or when this
 * occurrence of its schedule already has its instance (the fire-once index: a trigger fires
 * once however many nodes run). With `maxInstanceNum` instances not ended already, the new one
 * is made FAILED at once, saying so (PowerJob's "too many instances").
 */
export async function createJobInstance(
  sql: Sql,
  input: NewInstance,
  mails: PendingMails = [],
): Promise<{ id: string; status: InstanceState } | undefined> {
  const job = await lockJob(sql, input.jobId);
  if (!job) return undefined;
  const snapshot = snapshotOf(job);
  let status: InstanceState = 'WAITING_DISPATCH';
  let result: string | null = null;
  if (job.max_instance_num > 0) {
    const { rows } = await sql.query<{ open: number }>(
      `SELECT count(*)::int AS open FROM job_instance
        WHERE job_id = $1 AND status = ANY ($2::text[])`,
      [job.id, OPEN_STATES],
    );
    if (rows[0]!.open >= job.max_instance_num) {
      status = 'FAILED';
      result = `too many instances: ${rows[0]!.open} running, at most ${job.max_instance_num}`;
    }
  }
  const { rows } = await sql.query<{ id: string }>(
    `INSERT INTO job_instance (tenant_id, job_id, status, trigger_type, expected_trigger_time,
                               trigger_time, instance_params, wf_instance_id, wf_node_id,
                               job_snapshot, result, finished_time)
     VALUES ($1, $2, $3, $4, $5, now(), $6, $7, $8, $9, $10,
             CASE WHEN $3 = 'FAILED' THEN now() END)
     ON CONFLICT (job_id, expected_trigger_time) WHERE trigger_type = 'SCHEDULE' DO NOTHING
     RETURNING id::text`,
    [
      input.tenantId,
      job.id,
      status,
      input.triggerType,
      input.expectedTriggerTime,
      input.instanceParams ?? null,
      input.wfInstanceId ?? null,
      input.wfNodeId ?? null,
      JSON.stringify(snapshot),
      result,
    ],
  );
  const id = rows[0]?.id;
  if (!id) return undefined;
  await appendLog(sql, input.tenantId, id, 'server', `made by ${input.triggerType.toLowerCase()}`);
  if (status === 'FAILED') {
    await appendLog(sql, input.tenantId, id, 'server', result!, 'error');
    await announceEnd(sql, { id, status, result }, undefined, mails);
    return { id, status };
  }
  await scheduleRun(sql, input.tenantId, id, snapshot);
  return { id, status };
}

/** The instance's run trigger, due now (replacing an earlier one: a retry by hand). */
async function scheduleRun(
  sql: Sql,
  tenantId: string,
  instanceId: string,
  snapshot: JobSnapshot,
): Promise<void> {
  await scheduleOnce(sql, {
    tenantId,
    kind: JOB_RUN_KIND,
    key: instanceTriggerKey(instanceId),
    dueAt: new Date(),
    payload: { instanceId },
    maxAttempts: snapshot.retries + 1 + TAKEOVER_ALLOWANCE,
  });
}

/** An instance, locked (its state changes one writer at a time). */
export async function lockInstance(sql: Sql, instanceId: string): Promise<InstanceRow | undefined> {
  const { rows } = await sql.query<InstanceRow>(
    `SELECT ${INSTANCE_COLUMNS} FROM job_instance i WHERE i.id = $1 FOR UPDATE`,
    [instanceId],
  );
  return rows[0];
}

/** Adds a line to an instance's log (instance details). */
export async function appendLog(
  sql: Sql,
  tenantId: string,
  instanceId: string,
  node: string,
  line: string,
  level: 'info' | 'warn' | 'error' = 'info',
): Promise<void> {
  await sql.query(
    `INSERT INTO job_instance_log (tenant_id, instance_id, node, line, level)
     VALUES ($1, $2, $3, $4, $5)`,
    [tenantId, instanceId, node, line.slice(0, 4000), level],
  );
}

/**
 * Ends an instance not ended yet (compare-and-set on its state): its result, its sub-tasks'
 * and timeout's triggers cancelled, its listeners told, its alarm users told of a failure, and
 * a fixed-delay job's next trigger set. Answers whether this call ended it.
 */
export async function endInstance(
  sql: Sql,
  instanceId: string,
  end: {
    status: Extract<InstanceState, 'SUCCEED' | 'FAILED' | 'STOPPED' | 'CANCELED'>;
    result: string | null;
    context?: Record<string, unknown>;
    /** Ends it only while its run count is this (the run that ends it is the current one). */
    runningTimes?: number;
  },
  mails: PendingMails = [],
): Promise<boolean> {
  const { rows } = await sql.query<{ id: string }>(
    `UPDATE job_instance SET status = $2, result = $3, finished_time = now(), updated_at = now()
      WHERE id = $1 AND status = ANY ($4::text[])
        AND ($5::int IS NULL OR running_times = $5)
      RETURNING id::text`,
    [instanceId, end.status, end.result, OPEN_STATES, end.runningTimes ?? null],
  );
  if (!rows[0]) return false;
  await cancel(sql, timeoutTriggerKey(instanceId));
  await cancelPrefix(sql, `job-task:${instanceId}:`);
  if (end.status !== 'SUCCEED') await cancel(sql, instanceTriggerKey(instanceId));
  await announceEnd(
    sql,
    { id: instanceId, status: end.status, result: end.result },
    end.context,
    mails,
  );
  return true;
}

async function announceEnd(
  sql: Sql,
  ended: { id: string; status: InstanceState; result: string | null },
  context: Record<string, unknown> | undefined,
  mails: PendingMails,
): Promise<void> {
  const { rows } = await sql.query<{
    tenant_id: string;
    job_id: string;
    trigger_type: InstanceTrigger;
    wf_instance_id: string | null;
    wf_node_id: string | null;
    job_name: string;
    time_expression_type: TimeExpressionType;
    time_expression: string | null;
    status: number;
  }>(
    `SELECT i.tenant_id::text, i.job_id::text, i.trigger_type, i.wf_instance_id::text,
            i.wf_node_id, j.job_name, j.time_expression_type, j.time_expression, j.status
       FROM job_instance i JOIN job_info j ON j.id = i.job_id WHERE i.id = $1`,
    [ended.id],
  );
  const row = rows[0];
  if (!row) return;
  await sql.query(
    `INSERT INTO job_instance_log (tenant_id, instance_id, node, line, level)
     VALUES ($1, $2, 'server', $3, $4)`,
    [
      row.tenant_id,
      ended.id,
      `ended ${ended.status}${ended.result ? `: ${ended.result.slice(0, 500)}` : ''}`,
      ended.status === 'SUCCEED' ? 'info' : ended.status === 'FAILED' ? 'error' : 'warn',
    ],
  );
  if (ended.status === 'FAILED')
    mails.push(
      ...(await noticeFailure(sql, {
        tenantId: row.tenant_id,
        linkTable: 'job_alarm_user',
        ownerColumn: 'job_id',
        ownerId: row.job_id,
        kind: 'job',
        name: row.job_name,
        instanceId: ended.id,
        reason: ended.result ?? ended.status,
      })),
    );
  // Fixed delay: the next instance is due the delay after this one ended.
  if (
    row.trigger_type === 'SCHEDULE' &&
    row.time_expression_type === 'FIXED_DELAY' &&
    row.status === 1 &&
    row.time_expression
  )
    await scheduleFixedDelay(sql, {
      tenantId: row.tenant_id,
      kind: JOB_FIRE_KIND,
      key: jobTriggerKey(row.job_id),
      payload: { jobId: row.job_id },
      delayMs: Number(row.time_expression),
    });
  if (
    row.trigger_type === 'SCHEDULE' &&
    isSecondlyJob(row.time_expression_type, row.time_expression)
  )
    await purgeSecondlyHistory(sql, row.job_id);
  for (const listener of endListeners)
    await listener(sql, {
      tenantId: row.tenant_id,
      instanceId: ended.id,
      jobId: row.job_id,
      status: ended.status,
      result: ended.result,
      context,
      wfInstanceId: row.wf_instance_id,
      wfNodeId: row.wf_node_id,
    });
}

/** Channel on which a stop reaches the node running the instance (payload: instance id). */
export const STOP_CHANNEL = 'shuili_job_stop';

/**
 * Stops an instance not ended (spec: stop): STOPPED at once, its triggers cancelled, and the
 * node running it told (NOTIFY at commit) to abort its processor. Answers whether it stopped.
 */
export async function stopJobInstance(
  sql: Sql,
  instanceId: string,
  by: string,
  mails: PendingMails = [],
): Promise<boolean> {
  const stopped = await endInstance(
    sql,
    instanceId,
    { status: 'STOPPED', result: `stopped by ${by}` },
    mails,
  );
  if (stopped) {
    await cancel(sql, instanceTriggerKey(instanceId));
    await sql.query('SELECT pg_notify($1, $2)', [STOP_CHANNEL, instanceId]);
  }
  return stopped;
}

/**
 * Runs an ended instance again under the same id (spec: retry): waiting for dispatch, its
 * failures forgotten, its run count going on. Answers false when it has not ended.
 */
export async function retryJobInstance(sql: Sql, instanceId: string, by: string): Promise<boolean> {
  const instance = await lockInstance(sql, instanceId);
  if (!instance || !isEnded(instance.status) || instance.status === 'SUCCEED') return false;
  await sql.query(
    `UPDATE job_instance SET status = 'WAITING_DISPATCH', finished_time = NULL, result = NULL,
            failed_attempts = 0, updated_at = now() WHERE id = $1`,
    [instanceId],
  );
  await sql.query(
    `UPDATE job_subtask SET status = 'WAITING_DISPATCH', result = NULL, finished_time = NULL,
            attempts = 0 WHERE instance_id = $1 AND status <> 'SUCCEED'`,
    [instanceId],
  );
  await appendLog(sql, instance.tenant_id, instanceId, 'server', `retried by ${by}`, 'warn');
  await scheduleRun(sql, instance.tenant_id, instanceId, instance.job_snapshot);
  return true;
}

/** How long a secondly job's ended instances beyond its last ten stay readable. */
const SECONDLY_GRACE_MINUTES = 10;

/**
 * Spec §9: a secondly job keeps its last ten ended instances; older ones go (with their logs)
 * once past a short grace, and so do their run triggers, so a job firing every second does not
 * grow its tables by 86,400 rows a day.
 */
async function purgeSecondlyHistory(sql: Sql, jobId: string): Promise<void> {
  const { rows } = await sql.query<{ id: string }>(
    `DELETE FROM job_instance
      WHERE job_id = $1 AND trigger_type = 'SCHEDULE'
        AND status IN ('FAILED', 'SUCCEED', 'CANCELED', 'STOPPED')
        AND finished_time < now() - make_interval(mins => $2)
        AND id < coalesce((SELECT min(id) FROM (
              SELECT id FROM job_instance WHERE job_id = $1 AND status IN
                ('FAILED', 'SUCCEED', 'CANCELED', 'STOPPED')
               ORDER BY id DESC LIMIT $3) newest), 0)
      RETURNING id::text`,
    [jobId, SECONDLY_GRACE_MINUTES, SECONDLY_JOB_HISTORY],
  );
  if (rows.length > 0)
    await sql.query(
      `DELETE FROM scheduler_trigger WHERE key = ANY ($1::text[]) AND state IN ('done', 'failed', 'cancelled')`,
      [rows.map((row) => instanceTriggerKey(row.id))],
    );
}
