import {
  PROCESSORS,
  type ExecuteType,
  type ProcessorType,
  type TimeExpressionType,
} from '@shuili/contract';
import { JOB_FIRE_KIND, jobTriggerKey, type JobSnapshot } from '../../modules/jobs/job-instances';
import { scheduleInfoOf, syncTimedTrigger } from '../../modules/jobs/job-schedule';
import type { Sql } from '../database';

interface DemoJob {
  name: string;
  description: string;
  type: TimeExpressionType;
  expression: string | null;
  executeType: ExecuteType;
  processor: ProcessorType;
  params: Record<string, unknown>;
  timeout: number;
  retries: number;
  enabled: boolean;
}

const HOUR = 3_600_000;

/**
 * The demo district's jobs (issue 22), so /jobinfo, /taskinstance and /appmonitor show a working
 * scheduler at first sight: the district's own routines on the built-in processors, enabled with
 * their triggers (the alarm digest and the rollups run while `npm start` runs), and a week of
 * their instances with logs, one failed and retried. Returns the jobs' ids by processor.
 */
export async function seedDemoJobs(
  sql: Sql,
  tenantId: string,
  userIds: string[],
): Promise<Record<string, string>> {
  const { rows: schedules } = await sql.query<{ id: string }>(
    'SELECT id::text FROM monitor_rotation_schedule WHERE tenant_id = $1 ORDER BY id LIMIT 1',
    [tenantId],
  );
  const jobs: DemoJob[] = [
    {
      name: '每日告警摘要',
      description: '每天 07:00 把过去 24 小时的告警汇总发给值班人员',
      type: 'CRON',
      expression: '0 0 7 * * ?',
      executeType: 'STANDALONE',
      processor: 'alarmDigest',
      params: { hours: 24, openOnly: false },
      timeout: 120_000,
      retries: 2,
      enabled: true,
    },
    {
      name: '小时汇总重算',
      description: '每小时第 5 分钟按原始读数重算昨日以来的小时汇总,按天拆分到各节点',
      type: 'CRON',
      expression: '0 5 * * * ?',
      executeType: 'MAP_REDUCE',
      processor: 'recomputeRollups',
      params: { days: 2 },
      timeout: 600_000,
      retries: 1,
      enabled: true,
    },
    {
      name: '灌溉周报',
      description: '每周一 08:00 生成灌溉区域上周数据报表并发送邮件',
      type: 'CRON',
      expression: '0 0 8 ? * MON',
      executeType: 'STANDALONE',
      processor: 'dataReport',
      params: {
        areaCode: 'irrigation',
        period: 'week',
        format: 'xlsx',
        recipients: ['office@demo.shuili.local'],
      },
      timeout: 300_000,
      retries: 1,
      enabled: true,
    },
    {
      name: '过期数据清理',
      description: '每天 03:30 在每个节点上清理过期读数与 90 天前的任务记录',
      type: 'CRON',
      expression: '0 30 3 * * ?',
      executeType: 'BROADCAST',
      processor: 'retentionSweep',
      params: { instanceDays: 90 },
      timeout: 1_800_000,
      retries: 0,
      enabled: true,
    },
    ...(schedules[0]
      ? [
          {
            name: '春灌轮灌(手动触发)',
            description: '按需立即启动春灌轮灌计划',
            type: 'API' as const,
            expression: null,
            executeType: 'STANDALONE' as const,
            processor: 'irrigationProgram' as const,
            params: { scheduleId: schedules[0].id },
            timeout: 0,
            retries: 0,
            enabled: true,
          },
        ]
      : []),
    {
      name: '县水务局数据推送',
      description: '每 5 分钟把关键读数推送到县水务局平台(待对方开通后启用)',
      type: 'FIXED_RATE',
      expression: '300000',
      executeType: 'STANDALONE',
      processor: 'webhook',
      params: { url: 'https://example.com/county/water', method: 'POST', requestTimeoutMs: 10_000 },
      timeout: 30_000,
      retries: 3,
      enabled: false,
    },
  ];
  const ids: Record<string, string> = {};
  for (const job of jobs) {
    const { rows } = await sql.query<{ id: string }>(
      `INSERT INTO job_info (tenant_id, job_name, job_description, time_expression_type,
                             time_expression, schedule_info, execute_type, processor_type,
                             job_params, max_instance_num, thread_concurrency, max_worker_num,
                             timeout, retries, min_cpu_cores, min_memory_gb, min_disk_gb, status)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 1, 5, 0, $10, $11, 0, 0, 0, $12)
       RETURNING id::text`,
      [
        tenantId,
        job.name,
        job.description,
        job.type,
        job.expression,
        scheduleInfoOf(job.type, job.expression),
        job.executeType,
        job.processor,
        JSON.stringify(job.params),
        job.timeout,
        job.retries,
        job.enabled ? 1 : 0,
      ],
    );
    const id = rows[0]!.id;
    ids[job.processor] = id;
    if (userIds[0])
      await sql.query(
        'INSERT INTO job_alarm_user (tenant_id, job_id, user_id) VALUES ($1, $2, $3)',
        [tenantId, id, userIds[0]],
      );
    await syncTimedTrigger(sql, {
      tenantId,
      key: jobTriggerKey(id),
      kind: JOB_FIRE_KIND,
      type: job.type,
      expression: job.expression,
      enabled: job.enabled,
      payload: { jobId: id },
    });
    if (job.type === 'CRON') await seedHistory(sql, tenantId, id, job);
  }
  return ids;
}

/** A week of a daily-ish job's past runs (hourly ones: the last day's), with their logs. */
async function seedHistory(sql: Sql, tenantId: string, jobId: string, job: DemoJob): Promise<void> {
  const hourly = job.expression?.split(' ')[2] === '*';
  const count = hourly ? 24 : 7;
  const step = hourly ? HOUR : 24 * HOUR;
  const node = 'shuili-demo-node-1';
  const snapshot: JobSnapshot = {
    jobName: job.name,
    processorType: job.processor,
    executeType: job.executeType,
    timeExpressionType: job.type,
    params: job.params,
    timeout: job.timeout,
    retries: job.retries,
    threadConcurrency: 5,
    maxWorkerNum: 0,
    minCpuCores: 0,
    minMemoryGb: 0,
    minDiskGb: 0,
  };
  const newest = Math.floor(Date.now() / step) * step - step;
  for (let index = count - 1; index >= 0; index -= 1) {
    const expected = new Date(newest - index * step + (hourly ? 5 * 60_000 : 0));
    // One run of the digest failed once (the mail relay was down) and passed on its retry.
    const retried = job.processor === 'alarmDigest' && index === 2;
    const took = 800 + ((index * 37) % 900);
    const start = new Date(expected.getTime() + 40);
    const finished = new Date(start.getTime() + took + (retried ? 5_000 : 0));
    const { rows } = await sql.query<{ id: string }>(
      `INSERT INTO job_instance (tenant_id, job_id, status, trigger_type, expected_trigger_time,
                                 trigger_time, start_time, finished_time, running_times,
                                 failed_attempts, task_tracker_address, result, job_snapshot)
       VALUES ($1, $2, 'SUCCEED', 'SCHEDULE', $3, $3, $4, $5, $6, $7, $8, $9, $10)
       RETURNING id::text`,
      [
        tenantId,
        jobId,
        expected,
        start,
        finished,
        retried ? 2 : 1,
        retried ? 1 : 0,
        node,
        demoResult(job.processor, index),
        JSON.stringify(snapshot),
      ],
    );
    const lines: Array<[string, string]> = [
      ['info', 'made by schedule'],
      ['info', `running on ${node} (run 1)`],
      ...(retried
        ? ([
            ['warn', 'run 1 failed (mail relay refused the connection); retry 1 of 2'],
            ['info', `running on ${node} (run 2)`],
          ] as Array<[string, string]>)
        : []),
      ['info', `ended SUCCEED: ${demoResult(job.processor, index)}`],
    ];
    for (const [offset, [level, line]] of lines.entries())
      await sql.query(
        `INSERT INTO job_instance_log (tenant_id, instance_id, at, level, node, line)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [tenantId, rows[0]!.id, new Date(start.getTime() + offset * 200), level, node, line],
      );
  }
}

function demoResult(processor: ProcessorType, index: number): string {
  switch (processor) {
    case 'alarmDigest':
      return `${3 + (index % 4)} alarms in the last 24 h sent to 2 users`;
    case 'recomputeRollups':
      return `2 days recomputed: ${1400 + index * 3} hourly rollups`;
    case 'dataReport':
      return 'irrigation report (xlsx) e-mailed to 1 recipient';
    case 'retentionSweep':
      return 'readings past retention dropped; 0 old instances removed';
    default:
      return PROCESSORS[processor].type;
  }
}
