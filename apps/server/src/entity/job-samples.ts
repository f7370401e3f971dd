import type { EntitySample } from './entity-samples';

const EMPTY_DAG = JSON.stringify({ nodes: [], edges: [] });

/**
 * The job scheduler's samples (entity-samples.ts spreads them in). Jobs are API-triggered, so a
 * sample never fires; instances and workflow runs are rows the scheduler writes, inserted here
 * with the columns only it sets (the job snapshot, the DAG snapshot).
 */
export const JOB_SAMPLES: Record<string, EntitySample> = {
  JobInfo: {
    search: 'jobName',
    create: async (u, ctx) => ({
      jobName: `Nightly report ${u.text}`,
      jobDescription: 'Calls the district office after the night shift',
      timeExpressionType: 'API',
      executeType: 'STANDALONE',
      processorType: 'webhook',
      jobParams: JSON.stringify({
        url: 'https://example.com/hooks/shuili',
        method: 'POST',
        requestTimeoutMs: 5000,
      }),
      maxInstanceNum: 0,
      threadConcurrency: 5,
      maxWorkerNum: 0,
      timeout: 60_000,
      retries: 1,
      alarmUserIds: [await ctx.any('sys_user')],
    }),
    update: (u) => ({ jobName: `Nightly report renamed ${u.text}` }),
  },
  JobInstance: {
    search: 'taskTrackerAddress',
    create: async (u, ctx) => ({
      jobId: await ctx.fresh('job_info'),
      status: 'SUCCEED',
      triggerType: 'API',
      expectedTriggerTime: '2026-06-01T02:00:00.000Z',
      triggerTime: '2026-06-01T02:00:00.000Z',
      startTime: '2026-06-01T02:00:01.000Z',
      finishedTime: '2026-06-01T02:00:03.000Z',
      runningTimes: 1,
      taskTrackerAddress: `node-${u.text}`,
      result: 'HTTP 200',
    }),
    write: async (sql, tenantId, values) => {
      const { rows } = await sql.query<{ id: string }>(
        `INSERT INTO job_instance (tenant_id, job_id, status, trigger_type, expected_trigger_time,
                                   trigger_time, start_time, finished_time, running_times,
                                   task_tracker_address, result, job_snapshot)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, '{}'::jsonb) RETURNING id::text`,
        [
          tenantId,
          values.jobId,
          values.status,
          values.triggerType,
          values.expectedTriggerTime,
          values.triggerTime,
          values.startTime,
          values.finishedTime,
          values.runningTimes,
          values.taskTrackerAddress,
          values.result,
        ],
      );
      return rows[0]!.id;
    },
  },
  WorkflowInfo: {
    search: 'wfName',
    create: async (u, ctx) => ({
      wfName: `Night chain ${u.text}`,
      wfDescription: 'Rollups, then the report and the alarm digest',
      timeExpressionType: 'API',
      maxWfInstanceNum: 1,
      initParams: '{"area":"irrigation"}',
      alarmUserIds: [await ctx.any('sys_user')],
    }),
    update: (u) => ({ wfName: `Night chain renamed ${u.text}` }),
  },
  WorkflowInstance: {
    search: 'workflowId',
    create: async (_u, ctx) => ({
      workflowId: await ctx.fresh('workflow_info'),
      status: 'SUCCEED',
      triggerType: 'API',
      expectedTriggerTime: '2026-06-01T02:00:00.000Z',
      startTime: '2026-06-01T02:00:00.000Z',
      finishedTime: '2026-06-01T02:05:00.000Z',
      initParams: '{}',
      result: 'all nodes succeeded',
    }),
    write: async (sql, tenantId, values) => {
      const { rows } = await sql.query<{ id: string }>(
        `INSERT INTO workflow_instance (tenant_id, workflow_id, status, trigger_type,
                                        expected_trigger_time, start_time, finished_time,
                                        init_params, result, dag)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb) RETURNING id::text`,
        [
          tenantId,
          values.workflowId,
          values.status,
          values.triggerType,
          values.expectedTriggerTime,
          values.startTime,
          values.finishedTime,
          values.initParams,
          values.result,
          EMPTY_DAG,
        ],
      );
      return rows[0]!.id;
    },
  },
  WorkflowNodeInstance: {
    search: 'nodeId',
    // A node of one of the tenant's runs (the demo's seeded night run; a run has no add call).
    create: async (u, ctx) => ({
      wfInstanceId: await ctx.any('workflow_instance'),
      nodeId: `n${u.text}`,
      nodeName: `Rollups ${u.text}`,
      status: 'SUCCEED',
      startTime: '2026-06-01T02:00:00.000Z',
      finishedTime: '2026-06-01T02:01:00.000Z',
      result: 'HTTP 200',
    }),
    write: async (sql, tenantId, values) => {
      const { rows } = await sql.query<{ id: string }>(
        `INSERT INTO workflow_node_instance (tenant_id, wf_instance_id, node_id, node_name, status,
                                             start_time, finished_time, result)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id::text`,
        [
          tenantId,
          values.wfInstanceId,
          values.nodeId,
          values.nodeName,
          values.status,
          values.startTime,
          values.finishedTime,
          values.result,
        ],
      );
      return rows[0]!.id;
    },
  },
};
