import { label, type EnumOption } from '../../entity-kit';

/**
 * The job scheduler's vocabularies (spec §3 Job, §4 job instance states, RESEARCH "Job
 * scheduling"): PowerJob's names, so a district moving from it finds what it knows.
 */

/** How a job's instances are made: by a time rule, by a call (or the console), by a workflow. */
export const TIME_EXPRESSION_TYPES = [
  'CRON',
  'FIXED_RATE',
  'FIXED_DELAY',
  'API',
  'WORKFLOW',
] as const;
export type TimeExpressionType = (typeof TIME_EXPRESSION_TYPES)[number];
/** The types whose time expression is required (a rule the scheduler fires on its own). */
export const TIMED_EXPRESSION_TYPES: readonly TimeExpressionType[] = [
  'CRON',
  'FIXED_RATE',
  'FIXED_DELAY',
];

export const TIME_EXPRESSION_TYPE_OPTIONS: readonly EnumOption[] = [
  { value: 'CRON', label: label('CRON', 'CRON 表达式', 'CRON 表達式') },
  { value: 'FIXED_RATE', label: label('Fixed rate (ms)', '固定频率(毫秒)', '固定頻率(毫秒)') },
  { value: 'FIXED_DELAY', label: label('Fixed delay (ms)', '固定延迟(毫秒)', '固定延遲(毫秒)') },
  { value: 'API', label: label('API / by hand only', '仅 API 或手动', '僅 API 或手動') },
  { value: 'WORKFLOW', label: label('Workflow only', '仅工作流', '僅工作流程') },
];

/** Where an instance runs: one node, every node, or sub-tasks spread across nodes. */
export const EXECUTE_TYPES = ['STANDALONE', 'BROADCAST', 'MAP', 'MAP_REDUCE'] as const;
export type ExecuteType = (typeof EXECUTE_TYPES)[number];

export const EXECUTE_TYPE_OPTIONS: readonly EnumOption[] = [
  { value: 'STANDALONE', label: label('Standalone', '单机', '單機') },
  {
    value: 'BROADCAST',
    label: label('Broadcast (every node)', '广播(每个节点)', '廣播(每個節點)'),
  },
  { value: 'MAP', label: label('Map (sub-tasks)', 'Map(子任务)', 'Map(子任務)') },
  { value: 'MAP_REDUCE', label: label('MapReduce', 'MapReduce', 'MapReduce') },
];

/**
 * The built-in processors (never arbitrary code): what a district schedules. Their parameters
 * are declared in jobs/job-processors.ts.
 */
export const PROCESSOR_TYPES = [
  'irrigationProgram',
  'dataReport',
  'retentionSweep',
  'alarmDigest',
  'recomputeRollups',
  'webhook',
] as const;
export type ProcessorType = (typeof PROCESSOR_TYPES)[number];

export const PROCESSOR_TYPE_OPTIONS: readonly EnumOption[] = [
  {
    value: 'irrigationProgram',
    label: label('Run an irrigation program', '执行灌溉计划', '執行灌溉計畫'),
  },
  { value: 'dataReport', label: label('Data report by e-mail', '数据报表邮件', '資料報表郵件') },
  { value: 'retentionSweep', label: label('Retention sweep', '过期数据清理', '過期資料清理') },
  { value: 'alarmDigest', label: label('Alarm digest', '告警摘要', '告警摘要') },
  { value: 'recomputeRollups', label: label('Recompute rollups', '重算统计汇总', '重算統計彙總') },
  {
    value: 'webhook',
    label: label('HTTP call (webhook)', 'HTTP 调用(Webhook)', 'HTTP 呼叫(Webhook)'),
  },
];

/** Spec §4: an instance's states (PowerJob's). Ended: SUCCEED, FAILED, CANCELED, STOPPED. */
export const INSTANCE_STATES = [
  'WAITING_DISPATCH',
  'WAITING_WORKER_RECEIVE',
  'RUNNING',
  'FAILED',
  'SUCCEED',
  'CANCELED',
  'STOPPED',
] as const;
export type InstanceState = (typeof INSTANCE_STATES)[number];
export const ENDED_INSTANCE_STATES: readonly InstanceState[] = [
  'FAILED',
  'SUCCEED',
  'CANCELED',
  'STOPPED',
];

export const INSTANCE_STATE_OPTIONS: readonly EnumOption[] = [
  { value: 'WAITING_DISPATCH', label: label('Waiting dispatch', '等待派发', '等待派發') },
  {
    value: 'WAITING_WORKER_RECEIVE',
    label: label('Waiting worker receive', '等待节点接收', '等待節點接收'),
  },
  { value: 'RUNNING', label: label('Running', '运行中', '執行中') },
  { value: 'FAILED', label: label('Failed', '失败', '失敗') },
  { value: 'SUCCEED', label: label('Succeeded', '成功', '成功') },
  { value: 'CANCELED', label: label('Canceled', '已取消', '已取消') },
  { value: 'STOPPED', label: label('Stopped', '手动停止', '手動停止') },
];

/** What made an instance: its job's time rule, a call or the console, a workflow node. */
export const INSTANCE_TRIGGERS = ['SCHEDULE', 'API', 'WORKFLOW'] as const;
export type InstanceTrigger = (typeof INSTANCE_TRIGGERS)[number];
export const INSTANCE_TRIGGER_OPTIONS: readonly EnumOption[] = [
  { value: 'SCHEDULE', label: label('Schedule', '定时', '定時') },
  { value: 'API', label: label('API / by hand', 'API / 手动', 'API / 手動') },
  { value: 'WORKFLOW', label: label('Workflow', '工作流', '工作流程') },
];

/** A workflow instance's states. */
export const WF_INSTANCE_STATES = ['WAITING', 'RUNNING', 'FAILED', 'SUCCEED', 'STOPPED'] as const;
export type WfInstanceState = (typeof WF_INSTANCE_STATES)[number];
export const WF_INSTANCE_STATE_OPTIONS: readonly EnumOption[] = [
  { value: 'WAITING', label: label('Waiting', '等待', '等待') },
  { value: 'RUNNING', label: label('Running', '运行中', '執行中') },
  { value: 'FAILED', label: label('Failed', '失败', '失敗') },
  { value: 'SUCCEED', label: label('Succeeded', '成功', '成功') },
  { value: 'STOPPED', label: label('Stopped', '手动停止', '手動停止') },
];

/**
 * A workflow node's states. BLOCKED: a predecessor failed (only that node's descendants wait;
 * other branches run on). SKIPPED: disabled, or on a branch a decision did not take.
 */
export const WF_NODE_STATES = [
  'WAITING',
  'RUNNING',
  'SUCCEED',
  'FAILED',
  'SKIPPED',
  'BLOCKED',
  'STOPPED',
] as const;
export type WfNodeState = (typeof WF_NODE_STATES)[number];
export const WF_NODE_STATE_OPTIONS: readonly EnumOption[] = [
  { value: 'WAITING', label: label('Waiting', '等待', '等待') },
  { value: 'RUNNING', label: label('Running', '运行中', '執行中') },
  { value: 'SUCCEED', label: label('Succeeded', '成功', '成功') },
  { value: 'FAILED', label: label('Failed', '失败', '失敗') },
  { value: 'SKIPPED', label: label('Skipped', '已跳过', '已跳過') },
  { value: 'BLOCKED', label: label('Blocked by a failure', '因上游失败阻塞', '因上游失敗阻塞') },
  { value: 'STOPPED', label: label('Stopped', '手动停止', '手動停止') },
];
