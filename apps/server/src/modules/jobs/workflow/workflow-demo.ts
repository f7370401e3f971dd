import type { WorkflowDag } from '@shuili/contract';
import type { Sql } from '../../../db/database';
import { syncTimedTrigger } from '../job-schedule';
import { WORKFLOW_FIRE_KIND, workflowTriggerKey } from './workflow-engine';

const NODE = 'shuili-demo-node-1';

/**
 * The demo district's workflow (issue 22), so /workflowinfo, /workfloweditor and the run screens
 * show something real at first sight: every night the hourly rollups are recomputed, then the
 * weekly report and the alarm digest run in parallel. Enabled with its trigger, and with last
 * night's run completed (its node instances and their job instances, with logs). `jobIds` are
 * the demo jobs by processor (seedDemoJobs); without the three it needs, nothing is made.
 * Answers the workflow's id.
 */
export async function seedDemoWorkflow(
  sql: Sql,
  tenantId: string,
  jobIds: Record<string, string>,
): Promise<string | undefined> {
  const rollups = jobIds.recomputeRollups;
  const report = jobIds.dataReport;
  const digest = jobIds.alarmDigest;
  if (!rollups || !report || !digest) return undefined;
  const dag: WorkflowDag = {
    nodes: [
      {
        id: 'rollups',
        type: 'job',
        name: '重算小时汇总',
        jobId: rollups,
        params: '',
        enable: true,
        skipWhenFailed: false,
        position: { x: 40, y: 120 },
      },
      {
        id: 'report',
        type: 'job',
        name: '生成灌溉报表',
        jobId: report,
        params: '',
        enable: true,
        skipWhenFailed: false,
        position: { x: 340, y: 40 },
      },
      {
        id: 'digest',
        type: 'job',
        name: '告警摘要',
        jobId: digest,
        params: '',
        enable: true,
        // The digest is worth sending even when the report could not be made.
        skipWhenFailed: true,
        position: { x: 340, y: 200 },
      },
    ],
    edges: [
      { from: 'rollups', to: 'report' },
      { from: 'rollups', to: 'digest' },
    ],
  };
  const initParams = JSON.stringify({ district: 'demo', nightly: true });
  const { rows } = await sql.query<{ id: string }>(
    `INSERT INTO workflow_info (tenant_id, wf_name, wf_description, time_expression_type,
                                time_expression, max_wf_instance_num, init_params, dag, status)
     VALUES ($1, $2, $3, 'CRON', '0 30 1 * * ?', 1, $4, $5, 1) RETURNING id::text`,
    [
      tenantId,
      '夜间例行:汇总 → 报表与告警摘要',
      '每天 01:30 先重算小时汇总，再并行生成灌溉报表和发送告警摘要',
      initParams,
      JSON.stringify(dag),
    ],
  );
  const workflowId = rows[0]!.id;
  await syncTimedTrigger(sql, {
    tenantId,
    key: workflowTriggerKey(workflowId),
    kind: WORKFLOW_FIRE_KIND,
    type: 'CRON',
    expression: '0 30 1 * * ?',
    enabled: true,
    payload: { workflowId },
  });

  // Last night's run: the latest 01:30 in the demo's zone (UTC+8) at least an hour ago.
  const day = 86_400_000;
  const zone = 8 * 3_600_000;
  const today = Math.floor((Date.now() + zone) / day) * day - zone + 5_400_000;
  const expected = new Date(today <= Date.now() - 3_600_000 ? today : today - day);
  const at = (seconds: number) => new Date(expected.getTime() + seconds * 1000);
  const context = {
    district: 'demo',
    nightly: true,
    reportFile: 'irrigation-week.xlsx',
    alarms: 4,
  };
  const { rows: runs } = await sql.query<{ id: string }>(
    `INSERT INTO workflow_instance (tenant_id, workflow_id, status, trigger_type,
                                    expected_trigger_time, start_time, finished_time, init_params,
                                    context, dag, dag_version, result)
     VALUES ($1, $2, 'SUCCEED', 'SCHEDULE', $3, $3, $4, $5, $6, $7, 1, $8) RETURNING id::text`,
    [
      tenantId,
      workflowId,
      expected,
      at(41),
      initParams,
      JSON.stringify(context),
      JSON.stringify(dag),
      '3 nodes ended: 3 succeeded, 0 skipped',
    ],
  );
  const runId = runs[0]!.id;
  const nodes: Array<[string, string, number, number, string]> = [
    ['rollups', rollups, 0, 23, '2 days recomputed: 1410 hourly rollups'],
    ['report', report, 24, 41, 'irrigation report (xlsx) e-mailed to 1 recipient'],
    ['digest', digest, 24, 27, '4 alarms in the last 24 h sent to 2 users'],
  ];
  for (const [nodeId, jobId, from, to, result] of nodes) {
    const { rows: made } = await sql.query<{ id: string }>(
      `INSERT INTO job_instance (tenant_id, job_id, status, trigger_type, expected_trigger_time,
                                 trigger_time, start_time, finished_time, running_times,
                                 task_tracker_address, result, wf_instance_id, wf_node_id,
                                 job_snapshot)
       SELECT tenant_id, id, 'SUCCEED', 'WORKFLOW', $2, $2, $2, $3, 1, $4, $5, $6, $7,
              jsonb_build_object('jobName', job_name, 'processorType', processor_type,
                'executeType', execute_type, 'timeExpressionType', time_expression_type,
                'params', coalesce(nullif(job_params, '')::jsonb, '{}'::jsonb),
                'timeout', timeout, 'retries', retries,
                'threadConcurrency', thread_concurrency, 'maxWorkerNum', max_worker_num,
                'minCpuCores', min_cpu_cores, 'minMemoryGb', min_memory_gb,
                'minDiskGb', min_disk_gb)
         FROM job_info WHERE id = $1
       RETURNING id::text`,
      [jobId, at(from), at(to), NODE, result, runId, nodeId],
    );
    const instanceId = made[0]!.id;
    const lines = ['made by workflow', `running on ${NODE} (run 1)`, `ended SUCCEED: ${result}`];
    for (const [index, line] of lines.entries())
      await sql.query(
        `INSERT INTO job_instance_log (tenant_id, instance_id, at, level, node, line)
         VALUES ($1, $2, $3, 'info', $4, $5)`,
        [tenantId, instanceId, at(from + (index * (to - from)) / 2), NODE, line],
      );
    await sql.query(
      `INSERT INTO workflow_node_instance (tenant_id, wf_instance_id, node_id, node_name, job_id,
                                           status, job_instance_id, start_time, finished_time,
                                           result)
       VALUES ($1, $2, $3, $4, $5, 'SUCCEED', $6, $7, $8, $9)`,
      [
        tenantId,
        runId,
        nodeId,
        dag.nodes.find((node) => node.id === nodeId)!.name,
        jobId,
        instanceId,
        at(from),
        at(to),
        result,
      ],
    );
  }
  return workflowId;
}
