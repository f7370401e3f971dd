import { defineEntity, f, label } from '../../entity-kit';
import {
  EXECUTE_TYPE_OPTIONS,
  PROCESSOR_TYPE_OPTIONS,
  TIME_EXPRESSION_TYPE_OPTIONS,
} from './job-options';
import { JOB_ALARM_USERS, JOB_PATH, JOB_ROUTES } from './job-targets';

/**
 * A job (spec §3 Job, /jobinfo): what runs (a built-in processor and its parameters), when (its
 * time expression), where (standalone, broadcast, map, map-reduce) and within which limits. An
 * enabled timed job owns one recurring trigger of the scheduler core (`job:<id>`), kept in step
 * by its hooks; the trigger's next fire time is its `nextTriggerTime`. Spec §5: name, schedule
 * info and execute config required; a CRON expression is checked (Quartz syntax).
 */
export const jobInfoEntity = defineEntity({
  name: 'JobInfo',
  title: label('Jobs', '任务管理', '任務管理'),
  table: 'job_info',
  path: `${JOB_PATH}/jobinfo`,
  route: JOB_ROUTES.jobinfo,
  menuCode: 'jobinfo',
  scope: 'tenant',
  fields: {
    jobName: f.text({
      label: label('Job name', '任务名称', '任務名稱'),
      required: true,
      max: 128,
      sortable: true,
    }),
    jobDescription: f.textarea({ label: label('Description', '任务描述', '任務描述'), max: 500 }),
    timeExpressionType: f.enumOf({
      label: label('Time expression type', '时间表达式类型', '時間表達式類型'),
      required: true,
      options: TIME_EXPRESSION_TYPE_OPTIONS,
    }),
    timeExpression: f.text({
      label: label('Time expression', '时间表达式', '時間表達式'),
      max: 200,
      search: undefined,
    }),
    /** A summary of the schedule the server writes ("CRON 0 0 2 * * ?"), for lists and exports. */
    scheduleInfo: f.text({
      label: label('Schedule info', '定时信息', '定時資訊'),
      readOnly: true,
      max: 256,
    }),
    executeType: f.enumOf({
      label: label('Execute type', '执行类型', '執行類型'),
      required: true,
      options: EXECUTE_TYPE_OPTIONS,
      defaultValue: 'STANDALONE',
    }),
    processorType: f.enumOf({
      label: label('Processor', '处理器', '處理器'),
      required: true,
      options: PROCESSOR_TYPE_OPTIONS,
    }),
    /** The processor's parameters as JSON, checked against its declaration (job-processors.ts). */
    jobParams: f.textarea({ label: label('Job params', '任务参数', '任務參數'), max: 20_000 }),
    maxInstanceNum: f.int({
      label: label('Max instances (0 = unlimited)', '最大实例数(0 不限)', '最大實例數(0 不限)'),
      min: 0,
      max: 1000,
      defaultValue: 0,
    }),
    threadConcurrency: f.int({
      label: label('Thread concurrency', '单机线程并发数', '單機執行緒並發數'),
      min: 1,
      max: 64,
      defaultValue: 5,
      list: false,
    }),
    maxWorkerNum: f.int({
      label: label(
        'Max workers (0 = unlimited)',
        '最大执行节点数(0 不限)',
        '最大執行節點數(0 不限)',
      ),
      min: 0,
      max: 100,
      defaultValue: 0,
      list: false,
    }),
    timeout: f.int({
      label: label(
        'Timeout (ms, 0 = none)',
        '运行时间限制(毫秒,0 不限)',
        '執行時間限制(毫秒,0 不限)',
      ),
      min: 0,
      max: 86_400_000,
      defaultValue: 0,
    }),
    retries: f.int({
      label: label('Retries', '重试次数', '重試次數'),
      min: 0,
      max: 10,
      defaultValue: 0,
    }),
    minCpuCores: f.decimal({
      label: label('Min CPU cores', '最低 CPU 核数', '最低 CPU 核數'),
      min: 0,
      max: 256,
      precision: 1,
      defaultValue: 0,
      list: false,
    }),
    minMemoryGb: f.decimal({
      label: label('Min free memory (GB)', '最低空闲内存(GB)', '最低空閒記憶體(GB)'),
      min: 0,
      max: 4096,
      precision: 1,
      defaultValue: 0,
      list: false,
    }),
    minDiskGb: f.decimal({
      label: label('Min free disk (GB)', '最低空闲磁盘(GB)', '最低空閒磁碟(GB)'),
      min: 0,
      max: 1_000_000,
      precision: 1,
      defaultValue: 0,
      list: false,
    }),
    alarmUserIds: f.refs({
      label: label('Alarm users', '报警用户', '報警使用者'),
      target: JOB_ALARM_USERS,
    }),
    nextTriggerTime: f.datetime({
      label: label('Next trigger time', '下次触发时间', '下次觸發時間'),
      readOnly: true,
      sortable: false,
      computed: `(SELECT st.due_at FROM scheduler_trigger st
                   WHERE st.key = 'job:' || t.id AND st.state IN ('waiting', 'running'))`,
    }),
    status: f.status({ label: label('Enable', '启用', '啟用') }),
  },
});
