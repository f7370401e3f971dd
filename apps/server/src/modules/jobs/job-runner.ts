import type { FastifyBaseLogger } from 'fastify';
import type { ProcessorType } from '@shuili/contract';
import type { Config } from '../../config';
import type { Database, Sql } from '../../db/database';
import { tenantTimeZone } from '../iot/telemetry/telemetry-settings';
import type { Notifier } from '../notify/notifier';
import {
  DeclineRun,
  PermanentRunFailure,
  scheduleOnce,
  type RunOutcome,
  type Scheduler,
  type SchedulerRun,
} from '../scheduler/scheduler.service';
import { sendFailureMails } from './job-alarms';
import {
  appendLog,
  createJobInstance,
  endInstance,
  isEnded,
  JOB_FIRE_KIND,
  JOB_RUN_KIND,
  JOB_TASK_KIND,
  JOB_TIMEOUT_KIND,
  lockInstance,
  STOP_CHANNEL,
  timeoutTriggerKey,
  type InstanceRow,
  type JobSnapshot,
  type PendingMails,
} from './job-instances';
import type { JobProcessor, JobRunContext, JobRunResult } from './job-processor';
import { ALIVE_MS, type NodeRegistry, type NodeResources } from './job-nodes';
import { dispatchSubTasks, finishIfAllEnded, subTaskProcessor } from './job-subtasks';

/** How long an instance waits for a node with the CPU, memory and disk it needs. */
export const DISPATCH_PATIENCE_MS = 60_000;
/** Days the core keeps its runs of the job kinds. */
const RUN_DAYS = 7;
/** How often a node looks whether its running instances were stopped (besides NOTIFY). */
const STOP_CHECK_MS = 3_000;

export interface JobRunnerDeps {
  db: Database;
  scheduler: Scheduler;
  registry: NodeRegistry;
  processors: Record<ProcessorType, JobProcessor>;
  config: Config;
  log: FastifyBaseLogger;
  notifier: Notifier;
  /** The node's telemetry retention sweeper (made after the jobs: read when a job runs). */
  telemetrySweeper?: () => JobRunContext['telemetrySweeper'];
}

class InstanceTimeout extends Error {
  constructor(readonly ms: number) {
    super(`timeout: still running after ${ms} ms, the job's limit`);
  }
}

/**
 * Runs jobs on this node (docs/jobs.md): fires their triggers (making instances, inline in the
 * claim's transaction), runs standalone instances under the job's timeout, dispatches and runs
 * broadcast, map and map-reduce sub-tasks, and aborts what is stopped. Every node runs one.
 */
export class JobRunner {
  /** The processors under way here, by instance, to abort on a stop or a timeout. */
  private readonly local = new Map<string, Set<AbortController>>();
  private listener: { close(): Promise<void> } | undefined;
  private stopCheck: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(readonly deps: JobRunnerDeps) {}

  get node(): string {
    return this.deps.scheduler.node;
  }

  /** Instances (and sub-tasks) running on this node now. */
  get running(): number {
    let count = 0;
    for (const controllers of this.local.values()) count += controllers.size;
    return count;
  }

  register(): void {
    const { scheduler } = this.deps;
    // The instances and their logs are the jobs' history: the core's runs of them are kept
    // only as long as an operator may want to see which node claimed what.
    const keepRunsDays = RUN_DAYS;
    scheduler.registerInlineProcessor<{ jobId: string }>(
      JOB_FIRE_KIND,
      (run, sql) => this.fire(run, sql),
      { keepRunsDays },
    );
    scheduler.registerProcessor<{ instanceId: string }>(JOB_RUN_KIND, (run) => this.run(run), {
      keepRunsDays,
      onGiveUp: (run, error) => this.giveUp(run.tenantId, run.payload.instanceId, error),
    });
    scheduler.registerProcessor<{ instanceId: string; taskId: string }>(
      JOB_TASK_KIND,
      (run) => subTaskProcessor(this, run),
      { keepRunsDays },
    );
    scheduler.registerProcessor<{ instanceId: string }>(
      JOB_TIMEOUT_KIND,
      (run) => this.timeOut(run),
      { keepRunsDays },
    );
  }

  async start(): Promise<void> {
    this.stopped = false;
    try {
      this.listener = await this.deps.db.listen(STOP_CHANNEL, {
        message: (instanceId) => this.abortLocal(instanceId, 'stopped'),
        lost: () => undefined, // the periodic check below covers what NOTIFY missed
      });
    } catch (error) {
      this.deps.log.warn({ err: error }, 'job stop listener failed; checking periodically only');
    }
    this.stopCheck = setInterval(() => void this.checkStopped(), STOP_CHECK_MS);
    this.stopCheck.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.stopCheck);
    await this.listener?.close().catch(() => undefined);
    this.listener = undefined;
  }

  /** A job's trigger fired: its instance for this occurrence, in the claim's transaction. */
  private async fire(run: SchedulerRun<{ jobId: string }>, sql: Sql): Promise<RunOutcome> {
    const { rows } = await sql.query<{ status: number }>(
      'SELECT status FROM job_info WHERE id = $1',
      [run.payload.jobId],
    );
    if (rows[0]?.status !== 1) return { state: 'skipped', result: { reason: 'job disabled' } };
    const mails: PendingMails = [];
    const made = await createJobInstance(
      sql,
      {
        tenantId: run.tenantId,
        jobId: run.payload.jobId,
        triggerType: 'SCHEDULE',
        expectedTriggerTime: run.fireAt,
      },
      mails,
    );
    // Sent a moment later, after the claim's transaction committed.
    if (mails.length) setTimeout(() => void this.mail(mails), 1_000).unref();
    return { result: { instanceId: made?.id ?? null, status: made?.status ?? 'exists' } };
  }

  /** Runs an instance's run trigger: a standalone run, or the dispatch of its sub-tasks. */
  private async run(run: SchedulerRun<{ instanceId: string }>): Promise<RunOutcome> {
    const { db } = this.deps;
    const instanceId = run.payload.instanceId;
    const resources = await this.deps.registry.resources();
    const mails: PendingMails = [];
    const received = await db.tenant(run.tenantId, async (sql) => {
      const instance = await lockInstance(sql, instanceId);
      if (!instance || isEnded(instance.status)) return undefined;
      const lacking = lacks(instance.job_snapshot, resources);
      if (lacking) {
        const waited = Date.now() - (instance.trigger_time ?? new Date()).getTime();
        if (waited > DISPATCH_PATIENCE_MS) {
          await endInstance(
            sql,
            instanceId,
            { status: 'FAILED', result: `no node had ${lacking} within a minute` },
            mails,
          );
          return undefined;
        }
        if (instance.status === 'WAITING_DISPATCH') {
          await sql.query(
            `UPDATE job_instance SET status = 'WAITING_WORKER_RECEIVE' WHERE id = $1`,
            [instanceId],
          );
          await appendLog(
            sql,
            run.tenantId,
            instanceId,
            this.node,
            `waiting for a node with ${lacking}`,
            'warn',
          );
        }
        return 'declined' as const;
      }
      const takenOver = instance.status === 'RUNNING' ? instance.task_tracker_address : null;
      const distributed = instance.job_snapshot.executeType !== 'STANDALONE';
      const { rows } = await sql.query<{ running_times: number }>(
        `UPDATE job_instance SET status = $2, task_tracker_address = $3,
                start_time = coalesce(start_time, now()), running_times = running_times + 1,
                updated_at = now()
          WHERE id = $1 RETURNING running_times`,
        [instanceId, distributed ? 'WAITING_WORKER_RECEIVE' : 'RUNNING', this.node],
      );
      if (takenOver)
        await appendLog(
          sql,
          run.tenantId,
          instanceId,
          this.node,
          `taken over from ${takenOver}, whose lease lapsed (the node stopped mid-run)`,
          'warn',
        );
      await appendLog(
        sql,
        run.tenantId,
        instanceId,
        this.node,
        `${distributed ? 'dispatching' : 'running'} on ${this.node} (run ${rows[0]!.running_times})`,
      );
      if (instance.job_snapshot.timeout > 0)
        await scheduleOnce(sql, {
          tenantId: run.tenantId,
          kind: JOB_TIMEOUT_KIND,
          key: timeoutTriggerKey(instanceId),
          dueAt: new Date(
            (instance.start_time ?? new Date()).getTime() + instance.job_snapshot.timeout,
          ),
          payload: { instanceId },
          maxAttempts: 3,
        });
      return { ...instance, running_times: rows[0]!.running_times };
    });
    await this.mail(mails);
    if (received === 'declined') throw new DeclineRun(2_000);
    if (!received) return { state: 'skipped' };
    if (received.job_snapshot.executeType !== 'STANDALONE') {
      await dispatchSubTasks(this, received);
      return { result: { dispatched: true } };
    }
    return this.runStandalone(run, received);
  }

  private async runStandalone(
    run: SchedulerRun<{ instanceId: string }>,
    instance: InstanceRow,
  ): Promise<RunOutcome> {
    const snapshot = instance.job_snapshot;
    const processor = this.deps.processors[snapshot.processorType];
    const outcome = await this.execute(instance, (ctx) => processor.run(ctx), {
      idempotencyKey: `job-instance:${instance.id}`,
      attempt: instance.running_times,
    });
    const mails: PendingMails = [];
    try {
      if ('stopped' in outcome) return { state: 'skipped', result: { stopped: true } };
      if ('ok' in outcome) {
        await this.deps.db.tenant(run.tenantId, (sql) =>
          endInstance(
            sql,
            instance.id,
            {
              status: 'SUCCEED',
              result: outcome.ok.result,
              context: outcome.ok.context,
              runningTimes: instance.running_times,
            },
            mails,
          ),
        );
        return { result: { instanceId: instance.id } };
      }
      const final = await this.deps.db.tenant(run.tenantId, (sql) =>
        this.failedRun(sql, instance, outcome.error, mails),
      );
      if (final) throw new PermanentRunFailure(outcome.error);
      throw new Error(outcome.error);
    } finally {
      await this.mail(mails);
    }
  }

  /**
   * One failed run of an instance: retried while it has retries left (waiting for dispatch
   * again; the core's backoff sets when), else ended FAILED. Answers whether it ended.
   */
  private async failedRun(
    sql: Sql,
    instance: InstanceRow,
    error: string,
    mails: PendingMails,
  ): Promise<boolean> {
    const current = await lockInstance(sql, instance.id);
    if (!current || isEnded(current.status) || current.running_times !== instance.running_times)
      return true; // stopped or taken over meanwhile: nothing of this run is left to retry
    const failures = current.failed_attempts + 1;
    const retries = current.job_snapshot.retries;
    if (failures > retries) {
      await sql.query('UPDATE job_instance SET failed_attempts = $2 WHERE id = $1', [
        instance.id,
        failures,
      ]);
      await endInstance(sql, instance.id, { status: 'FAILED', result: error }, mails);
      return true;
    }
    await sql.query(
      `UPDATE job_instance SET status = 'WAITING_DISPATCH', failed_attempts = $2, result = $3,
              updated_at = now() WHERE id = $1`,
      [instance.id, failures, `run ${current.running_times} failed: ${error}`],
    );
    await appendLog(
      sql,
      current.tenant_id,
      instance.id,
      this.node,
      `run ${current.running_times} failed (${error}); retry ${failures} of ${retries}`,
      'warn',
    );
    return false;
  }

  /**
   * Runs a processor for an instance (or one of its sub-tasks) under the instance's stop and
   * the job's timeout: answers its result, its error, or that it was stopped. A processor that
   * ignores the abort is left behind: its late result can no longer end the instance.
   */
  async execute(
    instance: InstanceRow,
    work: (ctx: JobRunContext) => Promise<JobRunResult>,
    run: { idempotencyKey: string; attempt: number },
  ): Promise<{ ok: JobRunResult } | { error: string } | { stopped: true }> {
    const controller = new AbortController();
    const controllers = this.local.get(instance.id) ?? new Set();
    controllers.add(controller);
    this.local.set(instance.id, controllers);
    const snapshot = instance.job_snapshot;
    const elapsed = Date.now() - (instance.start_time ?? new Date()).getTime();
    const limit = snapshot.timeout > 0 ? Math.max(0, snapshot.timeout - elapsed) : 0;
    const timer =
      snapshot.timeout > 0
        ? setTimeout(() => controller.abort(new InstanceTimeout(snapshot.timeout)), limit)
        : undefined;
    const aborted = new Promise<never>((_, reject) => {
      controller.signal.addEventListener('abort', () => reject(controller.signal.reason), {
        once: true,
      });
    });
    try {
      const ctx = await this.contextOf(instance, controller.signal, run);
      const result = await Promise.race([work(ctx), aborted]);
      return { ok: result };
    } catch (error) {
      if (controller.signal.aborted && !(controller.signal.reason instanceof InstanceTimeout))
        return { stopped: true };
      return { error: error instanceof Error ? error.message : String(error) };
    } finally {
      clearTimeout(timer);
      controllers.delete(controller);
      if (controllers.size === 0) this.local.delete(instance.id);
    }
  }

  private async contextOf(
    instance: InstanceRow,
    signal: AbortSignal,
    run: { idempotencyKey: string; attempt: number },
  ): Promise<JobRunContext> {
    const { db, config, log } = this.deps;
    const { workflowContext, timeZone } = await db.tenant(instance.tenant_id, async (sql) => {
      const zone = await tenantTimeZone(sql);
      if (!instance.wf_instance_id) return { workflowContext: undefined, timeZone: zone };
      const { rows } = await sql.query<{ context: Record<string, unknown> }>(
        'SELECT context FROM workflow_instance WHERE id = $1',
        [instance.wf_instance_id],
      );
      return { workflowContext: rows[0]?.context ?? {}, timeZone: zone };
    });
    return {
      tenantId: instance.tenant_id,
      jobId: instance.job_id,
      instanceId: instance.id,
      idempotencyKey: run.idempotencyKey,
      attempt: run.attempt,
      params: instance.job_snapshot.params,
      instanceParams: instance.instance_params,
      workflowContext,
      signal,
      log: (line, level = 'info') =>
        db.tenant(instance.tenant_id, (sql) =>
          appendLog(sql, instance.tenant_id, instance.id, this.node, line, level),
        ),
      db,
      config,
      logger: log,
      node: this.node,
      timeZone,
      notifier: this.deps.notifier,
      telemetrySweeper: this.deps.telemetrySweeper?.(),
    };
  }

  /** The job's timeout trigger: an instance still open is ended FAILED and its work aborted. */
  private async timeOut(run: SchedulerRun<{ instanceId: string }>): Promise<RunOutcome> {
    const mails: PendingMails = [];
    const ended = await this.deps.db.tenant(run.tenantId, async (sql) => {
      const instance = await lockInstance(sql, run.payload.instanceId);
      if (!instance || isEnded(instance.status)) return false;
      const done = await endInstance(
        sql,
        instance.id,
        {
          status: 'FAILED',
          result: `timeout: still running after ${instance.job_snapshot.timeout} ms, the job's limit`,
        },
        mails,
      );
      if (done) await sql.query('SELECT pg_notify($1, $2)', [STOP_CHANNEL, instance.id]);
      return done;
    });
    await this.mail(mails);
    return ended ? {} : { state: 'skipped' };
  }

  /** The core gave an instance up (its nodes kept dying mid-run): it ends FAILED. */
  private async giveUp(tenantId: string, instanceId: string, error: string): Promise<void> {
    const mails: PendingMails = [];
    await this.deps.db.tenant(tenantId, (sql) =>
      endInstance(sql, instanceId, { status: 'FAILED', result: error }, mails),
    );
    await this.mail(mails);
  }

  /** Aborts this node's processors of an instance (a stop, a timeout seen elsewhere). */
  abortLocal(instanceId: string, why: 'stopped' | 'ended'): void {
    for (const controller of this.local.get(instanceId) ?? []) controller.abort(new Error(why));
  }

  /** Catches stops whose NOTIFY was missed: local instances that have ended are aborted. */
  private async checkStopped(): Promise<void> {
    if (this.stopped || this.local.size === 0) return;
    try {
      const { rows } = await this.deps.db.system((sql) =>
        sql.query<{ id: string }>(
          `SELECT id::text FROM job_instance
            WHERE id = ANY ($1::bigint[]) AND status IN ('FAILED', 'SUCCEED', 'CANCELED', 'STOPPED')`,
          [[...this.local.keys()]],
        ),
      );
      for (const row of rows) this.abortLocal(row.id, 'ended');
    } catch (error) {
      this.deps.log.warn({ err: error }, 'job stop check failed');
    }
  }

  /** Ends a distributed instance whose sub-tasks have all ended (see job-subtasks.ts). */
  finishIfAllEnded(tenantId: string, instanceId: string): Promise<void> {
    return finishIfAllEnded(this, tenantId, instanceId);
  }

  /** The nodes heard from lately (broadcast targets), oldest first. */
  async aliveNodes(): Promise<string[]> {
    const { rows } = await this.deps.db.system((sql) =>
      sql.query<{ node: string }>(
        `SELECT node FROM scheduler_node
          WHERE heartbeat_at > now() - make_interval(secs => $1) ORDER BY started_at, node`,
        [ALIVE_MS / 1000],
      ),
    );
    return rows.map((row) => row.node);
  }

  async mail(mails: PendingMails): Promise<void> {
    if (mails.length === 0) return;
    await sendFailureMails(this.deps.notifier, mails.splice(0), (error) =>
      this.deps.log.warn({ err: error }, 'job failure e-mail failed'),
    );
  }
}

/** What this node lacks of a job's minimum CPU, memory and disk, or undefined. */
export function lacks(snapshot: JobSnapshot, free: NodeResources): string | undefined {
  const missing: string[] = [];
  if (snapshot.minCpuCores > free.cpuCores) missing.push(`${snapshot.minCpuCores} CPU cores`);
  if (snapshot.minMemoryGb > free.memoryFreeGb)
    missing.push(`${snapshot.minMemoryGb} GB free memory`);
  if (snapshot.minDiskGb > free.diskFreeGb) missing.push(`${snapshot.minDiskGb} GB free disk`);
  return missing.length ? missing.join(', ') : undefined;
}
