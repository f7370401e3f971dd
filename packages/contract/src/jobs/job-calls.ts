import { z } from 'zod';
import {
  INSTANCE_STATES,
  type WfInstanceState,
  type WfNodeState,
} from '../entities/jobs/job-options';
import { JOB_PATH } from '../entities/jobs/job-targets';
import type { WorkflowDag } from './workflow-dag';

/**
 * The job scheduler's calls besides the entity kit's generic ones (spec §7: "job calls: not
 * shown"). Every call is a tenant's: RLS, menus' URL grants and the role's data scope apply.
 */
export const JOB_CALLS = {
  /** POST {id, instanceParams?}: an instance now (API trigger) → {instanceId}. */
  runJob: `${JOB_PATH}/jobinfo/runJob`,
  /** GET ?timeExpressionType&timeExpression: the next five trigger times in the tenant's zone. */
  nextTriggerTimes: `${JOB_PATH}/jobinfo/nextTriggerTimes`,
  /** POST {id}: stops an instance that has not ended (a running one is aborted on its node). */
  stopInstance: `${JOB_PATH}/instance/stopInstance`,
  /** POST {id}: runs an ended (failed, stopped, canceled) instance again, same id. */
  retryInstance: `${JOB_PATH}/instance/retryInstance`,
  /** GET ?id: the instance, its log lines and sub-tasks (JobInstanceDetail). */
  queryInstanceDetail: `${JOB_PATH}/instance/queryInstanceDetail`,
  /** GET: the server nodes (AppNode[]). */
  queryNodes: `${JOB_PATH}/appmonitor/queryNodes`,
  /** GET ?id: a workflow's DAG. */
  queryWorkflowDag: `${JOB_PATH}/workflow/queryWorkflowDag`,
  /** PUT {id, dag}: saves a DAG (a cycle or unknown job is refused, naming the nodes). */
  saveWorkflowDag: `${JOB_PATH}/workflow/saveWorkflowDag`,
  /** POST {id, initParams?}: a workflow instance now → {wfInstanceId}. */
  runWorkflow: `${JOB_PATH}/workflow/runWorkflow`,
  /** GET ?id: a workflow instance with its DAG and node states (WfInstanceDetail). */
  queryWfInstanceDetail: `${JOB_PATH}/wfinstance/queryWfInstanceDetail`,
  /** POST {id}: stops a running workflow instance (its running job instances too). */
  stopWfInstance: `${JOB_PATH}/wfinstance/stopWfInstance`,
  /** POST {id}: runs the failed nodes again (and what they blocked); succeeded ones stay. */
  retryWfInstance: `${JOB_PATH}/wfinstance/retryWfInstance`,
  /** POST {id, nodeId}: marks a failed or stopped node succeeded; its successors start. */
  markNodeSuccess: `${JOB_PATH}/wfinstance/markNodeSuccess`,
} as const;

/** Spec §9: a secondly job's history shows the last 10 records. */
export const SECONDLY_JOB_HISTORY = 10;

const instanceState = z.enum(INSTANCE_STATES);
const isoOrNull = z.string().nullable();

export const instanceLogLineSchema = z.object({
  at: z.string(),
  level: z.enum(['info', 'warn', 'error']),
  node: z.string(),
  line: z.string(),
});
export type InstanceLogLine = z.infer<typeof instanceLogLineSchema>;

/** A MAP / MAP_REDUCE / BROADCAST instance's sub-task (spec: sub-instance id). */
export const instanceSubTaskSchema = z.object({
  id: z.string(),
  taskName: z.string(),
  status: instanceState,
  node: z.string().nullable(),
  attempts: z.number(),
  startTime: isoOrNull,
  finishedTime: isoOrNull,
  result: z.string().nullable(),
});
export type InstanceSubTask = z.infer<typeof instanceSubTaskSchema>;

export const jobInstanceDetailSchema = z.object({
  id: z.string(),
  jobId: z.string(),
  jobName: z.string(),
  status: instanceState,
  triggerType: z.string(),
  expectedTriggerTime: z.string(),
  triggerTime: isoOrNull,
  startTime: isoOrNull,
  finishedTime: isoOrNull,
  runningTimes: z.number(),
  taskTrackerAddress: z.string().nullable(),
  instanceParams: z.string().nullable(),
  result: z.string().nullable(),
  wfInstanceId: z.string().nullable(),
  wfNodeId: z.string().nullable(),
  logs: z.array(instanceLogLineSchema),
  subTasks: z.array(instanceSubTaskSchema),
});
export type JobInstanceDetail = z.infer<typeof jobInstanceDetailSchema>;

/** A server node as /appmonitor shows it. */
export const appNodeSchema = z.object({
  node: z.string(),
  address: z.string(),
  version: z.string(),
  startedAt: z.string(),
  lastHeartbeat: z.string(),
  /** Heard from within the alive window: it takes work. */
  alive: z.boolean(),
  load1: z.number(),
  cpuCores: z.number(),
  memoryFreeGb: z.number(),
  diskFreeGb: z.number(),
  /** This tenant's instances running on it. */
  runningInstances: z.number(),
});
export type AppNode = z.infer<typeof appNodeSchema>;

export interface WfNodeStateRow {
  nodeId: string;
  status: WfNodeState;
  jobInstanceId: string | null;
  startTime: string | null;
  finishedTime: string | null;
  result: string | null;
}

export interface WfInstanceDetail {
  id: string;
  workflowId: string;
  wfName: string;
  status: WfInstanceState;
  expectedTriggerTime: string;
  startTime: string | null;
  finishedTime: string | null;
  initParams: string | null;
  context: Record<string, unknown>;
  result: string | null;
  dag: WorkflowDag;
  nodes: WfNodeStateRow[];
}

/**
 * A job that fires more often than once a minute (spec §9 "secondly"): a CRON expression whose
 * seconds field is not one fixed second, or a fixed rate or delay under a minute. Its history
 * keeps its last {@link SECONDLY_JOB_HISTORY} ended instances (older ones are purged after a
 * grace period), as PowerJob keeps them.
 */
export function isSecondlyJob(
  timeExpressionType: string,
  timeExpression: string | null | undefined,
): boolean {
  const text = timeExpression?.trim() ?? '';
  if (timeExpressionType === 'CRON') return !/^\d{1,2}$/.test(text.split(/\s+/)[0] ?? '');
  if (timeExpressionType === 'FIXED_RATE' || timeExpressionType === 'FIXED_DELAY')
    return Number(text) > 0 && Number(text) < 60_000;
  return false;
}
