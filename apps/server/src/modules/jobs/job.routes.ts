import {
  appNodeSchema,
  JOB_CALLS,
  jobInstanceDetailSchema,
  label,
  TIME_EXPRESSION_TYPES,
  type AppNode,
  type JobInstanceDetail,
} from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database, Sql } from '../../db/database';
import { AppError } from '../../http/app-error';
import { envelopeOf, ok } from '../../http/envelope';
import { authOf } from '../../http/request-context';
import { tenantTimeZone } from '../iot/telemetry/telemetry-settings';
import {
  createJobInstance,
  retryJobInstance,
  stopJobInstance,
  type PendingMails,
} from './job-instances';
import { ALIVE_MS } from './job-nodes';
import type { JobRunner } from './job-runner';
import { nextTriggerTimes, timeExpressionProblem } from './job-schedule';
import { idParam as id, isoOrNull as iso } from './job-http';

const fieldLabels = {
  id: { label: label('Id', '编号', '編號') },
  instanceParams: { label: label('Instance params', '实例参数', '實例參數') },
  timeExpression: { label: label('Time expression', '时间表达式', '時間表達式') },
  timeExpressionType: { label: label('Time expression type', '时间表达式类型', '時間表達式類型') },
};

/**
 * The job scheduler's own calls (JOB_CALLS, docs/jobs.md): run a job now, preview a time
 * expression's next trigger times, stop and retry instances, an instance's details (log and
 * sub-tasks), and the server nodes. Each is a granted call of its screen's menu, in the
 * caller's tenant (RLS); the generic entity calls list, add, edit, enable and export.
 */
export async function jobRoutes(
  fastify: FastifyInstance,
  deps: { db: Database; runner: JobRunner },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['jobs'];
  const config = { permission: 'granted' as const, fieldLabels };
  const { db } = deps;

  app.post(JOB_CALLS.runJob, {
    config,
    schema: {
      tags,
      summary: 'Runs a job now (an API-triggered instance), whatever its time expression',
      body: z.object({ id, instanceParams: z.string().max(20_000).nullish() }),
      response: { 200: envelopeOf(z.object({ instanceId: z.string(), status: z.string() })) },
    },
    handler: async (request) => {
      const auth = authOf(request);
      const mails: PendingMails = [];
      const made = await db.tenant(auth, async (sql) => {
        const { rows } = await sql.query<{ status: number }>(
          'SELECT status FROM job_info WHERE id = $1',
          [request.body.id],
        );
        if (!rows[0])
          throw new AppError(404, 'jobs.jobMissing', {
            fields: [{ field: 'id', key: 'jobs.jobMissing', params: { id: request.body.id } }],
          });
        if (rows[0].status !== 1)
          throw new AppError(409, 'jobs.jobDisabled', {
            fields: [{ field: 'id', key: 'jobs.jobDisabled', params: { id: request.body.id } }],
          });
        return createJobInstance(
          sql,
          {
            tenantId: auth.tenantId,
            jobId: request.body.id,
            triggerType: 'API',
            expectedTriggerTime: new Date(),
            instanceParams: request.body.instanceParams ?? null,
          },
          mails,
        );
      });
      await deps.runner.mail(mails);
      deps.runner.deps.scheduler.poke();
      return ok({ instanceId: made!.id, status: made!.status });
    },
  });

  app.get(JOB_CALLS.nextTriggerTimes, {
    config: { ...config, reads: true },
    schema: {
      tags,
      summary: "The next five trigger times of a time expression, in the tenant's time zone",
      querystring: z.object({
        timeExpressionType: z.enum(TIME_EXPRESSION_TYPES),
        timeExpression: z.string().max(200).default(''),
      }),
      response: {
        200: envelopeOf(z.object({ times: z.array(z.string()), timeZone: z.string() })),
      },
    },
    handler: async (request) => {
      const { timeExpressionType: type, timeExpression: expression } = request.query;
      const problem = timeExpressionProblem(type, expression);
      if (problem) throw new AppError(400, problem.key, { fields: [problem] });
      const timeZone = await db.tenant(authOf(request), (sql) => tenantTimeZone(sql));
      const times = nextTriggerTimes(type, expression.trim(), timeZone, 5);
      return ok({ times: times.map((time) => time.toISOString()), timeZone });
    },
  });

  app.post(JOB_CALLS.stopInstance, {
    config,
    schema: {
      tags,
      summary: 'Stops an instance that has not ended (its node aborts its processor)',
      body: z.object({ id }),
      response: { 200: envelopeOf(z.object({ stopped: z.boolean() })) },
    },
    handler: async (request) => {
      const auth = authOf(request);
      const mails: PendingMails = [];
      const stopped = await db.tenant(auth, async (sql) => {
        await instanceOrMissing(sql, request.body.id);
        const done = await stopJobInstance(sql, request.body.id, auth.username, mails);
        if (!done)
          throw new AppError(409, 'jobs.instanceEnded', {
            fields: [{ field: 'id', key: 'jobs.instanceEnded', params: { id: request.body.id } }],
          });
        return done;
      });
      await deps.runner.mail(mails);
      return ok({ stopped });
    },
  });

  app.post(JOB_CALLS.retryInstance, {
    config,
    schema: {
      tags,
      summary: 'Runs a failed, stopped or canceled instance again (same id)',
      body: z.object({ id }),
      response: { 200: envelopeOf(z.object({ retried: z.boolean() })) },
    },
    handler: async (request) => {
      const auth = authOf(request);
      const retried = await db.tenant(auth, async (sql) => {
        await instanceOrMissing(sql, request.body.id);
        const done = await retryJobInstance(sql, request.body.id, auth.username);
        if (!done)
          throw new AppError(409, 'jobs.instanceNotEnded', {
            fields: [
              { field: 'id', key: 'jobs.instanceNotEnded', params: { id: request.body.id } },
            ],
          });
        return done;
      });
      deps.runner.deps.scheduler.poke();
      return ok({ retried });
    },
  });

  app.get(JOB_CALLS.queryInstanceDetail, {
    config: { ...config, reads: true },
    schema: {
      tags,
      summary: "An instance with its log lines and sub-tasks (spec: 'no task instance generated'",
      querystring: z.object({ id }),
      response: { 200: envelopeOf(jobInstanceDetailSchema) },
    },
    handler: async (request) =>
      ok(await db.tenant(authOf(request), (sql) => instanceDetail(sql, request.query.id))),
  });

  app.get(JOB_CALLS.queryNodes, {
    config: { ...config, reads: true },
    schema: {
      tags,
      summary: 'The server nodes: address, version, heartbeat, load, free resources, running',
      response: { 200: envelopeOf(z.array(appNodeSchema)) },
    },
    handler: async (request) => {
      const auth = authOf(request);
      // The tenant's own running instances per node; the nodes themselves are the platform's.
      const running = await db.tenant(auth, async (sql) => {
        const { rows } = await sql.query<{ node: string; count: number }>(
          `SELECT task_tracker_address AS node, count(*)::int AS count FROM job_instance
            WHERE status = 'RUNNING' AND task_tracker_address IS NOT NULL GROUP BY 1`,
        );
        return new Map(rows.map((row) => [row.node, row.count]));
      });
      const { rows } = await db.system((sql) =>
        sql.query<{
          node: string;
          address: string;
          version: string;
          started_at: Date;
          heartbeat_at: Date;
          alive: boolean;
          load1: number;
          cpu_cores: number;
          memory_free_gb: number;
          disk_free_gb: number;
        }>(
          `SELECT node, address, version, started_at, heartbeat_at,
                  heartbeat_at > now() - make_interval(secs => $1) AS alive, load1, cpu_cores,
                  memory_free_gb, disk_free_gb
             FROM scheduler_node ORDER BY started_at, node`,
          [ALIVE_MS / 1000],
        ),
      );
      const nodes: AppNode[] = rows.map((row) => ({
        node: row.node,
        address: row.address,
        version: row.version,
        startedAt: row.started_at.toISOString(),
        lastHeartbeat: row.heartbeat_at.toISOString(),
        alive: row.alive,
        load1: Number(row.load1),
        cpuCores: Number(row.cpu_cores),
        memoryFreeGb: Number(row.memory_free_gb),
        diskFreeGb: Number(row.disk_free_gb),
        runningInstances: running.get(row.node) ?? 0,
      }));
      return ok(nodes);
    },
  });
}

async function instanceOrMissing(sql: Sql, instanceId: string) {
  const { rows } = await sql.query('SELECT 1 FROM job_instance WHERE id = $1', [instanceId]);
  if (!rows[0]) throw new AppError(404, 'jobs.instanceMissing');
}

/** An instance, its log (oldest first, the last 500 lines) and its sub-tasks. */
async function instanceDetail(sql: Sql, instanceId: string): Promise<JobInstanceDetail> {
  const { rows } = await sql.query<{
    id: string;
    job_id: string;
    job_name: string;
    status: JobInstanceDetail['status'];
    trigger_type: string;
    expected_trigger_time: Date;
    trigger_time: Date | null;
    start_time: Date | null;
    finished_time: Date | null;
    running_times: number;
    task_tracker_address: string | null;
    instance_params: string | null;
    result: string | null;
    wf_instance_id: string | null;
    wf_node_id: string | null;
  }>(
    `SELECT i.id::text, i.job_id::text, coalesce(j.job_name, i.job_snapshot ->> 'jobName') AS job_name,
            i.status, i.trigger_type, i.expected_trigger_time, i.trigger_time, i.start_time,
            i.finished_time, i.running_times, i.task_tracker_address, i.instance_params,
            i.result, i.wf_instance_id::text, i.wf_node_id
       FROM job_instance i LEFT JOIN job_info j ON j.id = i.job_id WHERE i.id = $1`,
    [instanceId],
  );
  const row = rows[0];
  if (!row) throw new AppError(404, 'jobs.instanceMissing');
  const logs = await sql.query<{
    at: Date;
    level: 'info' | 'warn' | 'error';
    node: string;
    line: string;
  }>(
    `SELECT at, level, node, line FROM (
       SELECT id, at, level, node, line FROM job_instance_log WHERE instance_id = $1
        ORDER BY id DESC LIMIT 500) newest ORDER BY id`,
    [instanceId],
  );
  const tasks = await sql.query<{
    id: string;
    task_name: string;
    status: JobInstanceDetail['status'];
    node: string | null;
    attempts: number;
    start_time: Date | null;
    finished_time: Date | null;
    result: string | null;
  }>(
    `SELECT id::text, task_name, status, node, attempts, start_time, finished_time, result
       FROM job_subtask WHERE instance_id = $1 ORDER BY id LIMIT 1000`,
    [instanceId],
  );
  return {
    id: row.id,
    jobId: row.job_id,
    jobName: row.job_name,
    status: row.status,
    triggerType: row.trigger_type,
    expectedTriggerTime: row.expected_trigger_time.toISOString(),
    triggerTime: iso(row.trigger_time),
    startTime: iso(row.start_time),
    finishedTime: iso(row.finished_time),
    runningTimes: row.running_times,
    taskTrackerAddress: row.task_tracker_address,
    instanceParams: row.instance_params,
    result: row.result,
    wfInstanceId: row.wf_instance_id,
    wfNodeId: row.wf_node_id,
    logs: logs.rows.map((line) => ({ ...line, at: line.at.toISOString() })),
    subTasks: tasks.rows.map((task) => ({
      id: task.id,
      taskName: task.task_name,
      status: task.status,
      node: task.node,
      attempts: task.attempts,
      startTime: iso(task.start_time),
      finishedTime: iso(task.finished_time),
      result: task.result,
    })),
  };
}
