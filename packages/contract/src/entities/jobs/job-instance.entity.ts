import { defineEntity, f, label } from '../../entity-kit';
import { INSTANCE_STATE_OPTIONS, INSTANCE_TRIGGER_OPTIONS } from './job-options';
import { JOB_PATH, JOB_ROUTES, JOB_TARGET, WF_INSTANCE_TARGET } from './job-targets';

const readOnlyTime = (en: string, zh: string, tw: string) =>
  f.datetime({ label: label(en, zh, tw), readOnly: true });

/**
 * One run of a job (spec /taskinstance, §4 states): made by its job's trigger, a call or a
 * workflow node; written by the job service only. Retry and stop are calls of their own
 * (job-calls.ts); its log lines and sub-tasks are read with its details.
 */
export const jobInstanceEntity = defineEntity({
  name: 'JobInstance',
  title: label('Task instances', '任务实例', '任務實例'),
  table: 'job_instance',
  path: `${JOB_PATH}/instance`,
  route: JOB_ROUTES.taskinstance,
  menuCode: 'taskinstance',
  scope: 'tenant',
  operations: { add: false, update: false, delete: false, status: false, export: true },
  defaultSort: { field: 'expectedTriggerTime', order: 'descend' },
  fields: {
    jobId: f.ref({
      label: label('Job', '任务', '任務'),
      readOnly: true,
      target: JOB_TARGET,
      search: 'eq',
      onDelete: 'cascade',
    }),
    status: f.enumOf({
      label: label('Status', '状态', '狀態'),
      readOnly: true,
      options: INSTANCE_STATE_OPTIONS,
      search: 'in',
    }),
    triggerType: f.enumOf({
      label: label('Trigger', '触发方式', '觸發方式'),
      readOnly: true,
      options: INSTANCE_TRIGGER_OPTIONS,
    }),
    expectedTriggerTime: f.datetime({
      label: label('Expected trigger time', '期望触发时间', '期望觸發時間'),
      readOnly: true,
      search: 'range',
    }),
    triggerTime: readOnlyTime('Trigger time', '触发时间', '觸發時間'),
    startTime: readOnlyTime('Start time', '开始时间', '開始時間'),
    finishedTime: readOnlyTime('Finished time', '结束时间', '結束時間'),
    runningTimes: f.int({
      label: label('Running times', '运行次数', '執行次數'),
      readOnly: true,
      max: 1000,
    }),
    taskTrackerAddress: f.text({
      label: label('Task tracker address', 'TaskTracker 地址', 'TaskTracker 位址'),
      readOnly: true,
      max: 256,
      search: 'eq',
    }),
    instanceParams: f.textarea({
      label: label('Instance params', '实例参数', '實例參數'),
      readOnly: true,
      max: 20_000,
    }),
    result: f.textarea({
      label: label('Result', '执行结果', '執行結果'),
      readOnly: true,
      max: 20_000,
    }),
    wfInstanceId: f.ref({
      label: label('Workflow instance id', '工作流实例 ID', '工作流程實例 ID'),
      readOnly: true,
      target: WF_INSTANCE_TARGET,
      search: 'eq',
      // A workflow's runs go with it; the jobs' instances they made stay in the jobs' history.
      onDelete: 'set-null',
    }),
    wfNodeId: f.text({
      label: label('Workflow node', '工作流节点', '工作流程節點'),
      readOnly: true,
      max: 64,
      search: undefined,
    }),
  },
});
