import { defineEntity, f, label } from '../../entity-kit';
import {
  TIME_EXPRESSION_TYPE_OPTIONS,
  WF_INSTANCE_STATE_OPTIONS,
  WF_NODE_STATE_OPTIONS,
} from './job-options';
import {
  JOB_INSTANCE_TARGET,
  JOB_PATH,
  JOB_ROUTES,
  JOB_TARGET,
  WF_ALARM_USERS,
  WF_INSTANCE_TARGET,
  WORKFLOW_TARGET,
} from './job-targets';

/**
 * A DAG workflow of jobs (spec /workflowinfo; Workflow wfId, wfName, wfDescription). Its graph
 * (`dag`, jobs/workflow-dag.ts) is drawn on /workfloweditor and saved by its own call, which
 * refuses a cycle; the generic calls keep the rest. Timed like a job (CRON, fixed rate, API).
 */
export const workflowInfoEntity = defineEntity({
  name: 'WorkflowInfo',
  title: label('Workflows', '工作流管理', '工作流程管理'),
  table: 'workflow_info',
  path: `${JOB_PATH}/workflow`,
  route: JOB_ROUTES.workflowinfo,
  menuCode: 'workflowinfo',
  scope: 'tenant',
  fields: {
    wfName: f.text({
      label: label('Workflow name', '工作流名称', '工作流程名稱'),
      required: true,
      max: 128,
      sortable: true,
    }),
    wfDescription: f.textarea({
      label: label('Description', '工作流描述', '工作流程描述'),
      max: 500,
    }),
    timeExpressionType: f.enumOf({
      label: label('Time expression type', '时间表达式类型', '時間表達式類型'),
      required: true,
      options: TIME_EXPRESSION_TYPE_OPTIONS.filter((option) => option.value !== 'WORKFLOW'),
      defaultValue: 'API',
    }),
    timeExpression: f.text({
      label: label('Time expression', '时间表达式', '時間表達式'),
      max: 200,
      search: undefined,
    }),
    maxWfInstanceNum: f.int({
      label: label('Max instances (0 = unlimited)', '最大实例数(0 不限)', '最大實例數(0 不限)'),
      min: 0,
      max: 1000,
      defaultValue: 1,
    }),
    /** Init params: a JSON object, the first content of every instance's context. */
    initParams: f.textarea({ label: label('Init params', '初始参数', '初始參數'), max: 20_000 }),
    dag: f.json({ label: label('DAG', 'DAG', 'DAG') }),
    nodeCount: f.int({
      label: label('Nodes', '节点数', '節點數'),
      readOnly: true,
      sortable: false,
      computed: `coalesce(jsonb_array_length(t.dag -> 'nodes'), 0)`,
    }),
    alarmUserIds: f.refs({
      label: label('Alarm users', '报警用户', '報警使用者'),
      target: WF_ALARM_USERS,
    }),
    nextTriggerTime: f.datetime({
      label: label('Next trigger time', '下次触发时间', '下次觸發時間'),
      readOnly: true,
      sortable: false,
      computed: `(SELECT st.due_at FROM scheduler_trigger st
                   WHERE st.key = 'workflow:' || t.id AND st.state IN ('waiting', 'running'))`,
    }),
    status: f.status({ label: label('Enable', '启用', '啟用') }),
  },
});

/**
 * One run of a workflow (spec /dagworkflowinstance): the DAG as it was when it started (later
 * edits never change a run), its context passed node to node, its state. Written by the
 * workflow engine only; stop, retry and mark-success are calls of their own.
 */
export const workflowInstanceEntity = defineEntity({
  name: 'WorkflowInstance',
  title: label('Workflow instances', '工作流实例', '工作流程實例'),
  table: 'workflow_instance',
  path: `${JOB_PATH}/wfinstance`,
  route: JOB_ROUTES.dagworkflowinstance,
  menuCode: 'dagworkflowinstance',
  scope: 'tenant',
  operations: { add: false, update: false, delete: false, status: false, export: true },
  defaultSort: { field: 'expectedTriggerTime', order: 'descend' },
  fields: {
    workflowId: f.ref({
      label: label('Workflow id', '工作流 ID', '工作流程 ID'),
      readOnly: true,
      target: WORKFLOW_TARGET,
      search: 'eq',
      onDelete: 'cascade',
    }),
    status: f.enumOf({
      label: label('Status', '状态', '狀態'),
      readOnly: true,
      options: WF_INSTANCE_STATE_OPTIONS,
      search: 'in',
    }),
    triggerType: f.text({
      label: label('Trigger', '触发方式', '觸發方式'),
      readOnly: true,
      max: 16,
    }),
    expectedTriggerTime: f.datetime({
      label: label('Expected trigger time', '期望触发时间', '期望觸發時間'),
      readOnly: true,
    }),
    startTime: f.datetime({ label: label('Start time', '开始时间', '開始時間'), readOnly: true }),
    finishedTime: f.datetime({
      label: label('Finished time', '结束时间', '結束時間'),
      readOnly: true,
    }),
    initParams: f.textarea({
      label: label('Init params', '初始参数', '初始參數'),
      readOnly: true,
      max: 20_000,
    }),
    context: f.json({ label: label('Context', '上下文', '上下文') }),
    dag: f.json({ label: label('DAG', 'DAG', 'DAG') }),
    result: f.textarea({
      label: label('Result', '执行结果', '執行結果'),
      readOnly: true,
      max: 20_000,
    }),
  },
});

/**
 * One node of one workflow run (spec /dagtaskinstance): unique per (run, node), so a node is
 * started once however many nodes finish at the same moment; its job instance when it ran one.
 */
export const workflowNodeInstanceEntity = defineEntity({
  name: 'WorkflowNodeInstance',
  title: label('DAG task instances', 'DAG 任务实例', 'DAG 任務實例'),
  table: 'workflow_node_instance',
  path: `${JOB_PATH}/wfnode`,
  route: JOB_ROUTES.dagtaskinstance,
  menuCode: 'dagtaskinstance',
  scope: 'tenant',
  operations: { add: false, update: false, delete: false, status: false, export: true },
  defaultSort: { field: 'id', order: 'descend' },
  fields: {
    wfInstanceId: f.ref({
      label: label('Workflow instance id', '工作流实例 ID', '工作流程實例 ID'),
      readOnly: true,
      target: WF_INSTANCE_TARGET,
      search: 'eq',
      onDelete: 'cascade',
    }),
    nodeId: f.text({ label: label('Node', '节点', '節點'), readOnly: true, max: 64, search: 'eq' }),
    nodeName: f.text({
      label: label('Node name', '节点名称', '節點名稱'),
      readOnly: true,
      max: 128,
    }),
    jobId: f.ref({
      label: label('Job', '任务', '任務'),
      readOnly: true,
      target: JOB_TARGET,
      onDelete: 'set-null',
    }),
    status: f.enumOf({
      label: label('Status', '状态', '狀態'),
      readOnly: true,
      options: WF_NODE_STATE_OPTIONS,
      search: 'in',
    }),
    jobInstanceId: f.ref({
      label: label('Sub-instance id', '子实例 ID', '子實例 ID'),
      readOnly: true,
      target: JOB_INSTANCE_TARGET,
      onDelete: 'set-null',
    }),
    startTime: f.datetime({ label: label('Start time', '开始时间', '開始時間'), readOnly: true }),
    finishedTime: f.datetime({
      label: label('Finished time', '结束时间', '結束時間'),
      readOnly: true,
    }),
    result: f.textarea({
      label: label('Result', '执行结果', '執行結果'),
      readOnly: true,
      max: 20_000,
    }),
  },
});
