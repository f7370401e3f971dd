import type { LinkTarget, RefTarget } from '../../entity-kit';

/** The job scheduler's calls live under /api/job; its screens keep the spec's top-level paths. */
export const JOB_PATH = '/api/job';

export const JOB_ROUTES = {
  appmonitor: '/appmonitor',
  jobinfo: '/jobinfo',
  taskinstance: '/taskinstance',
  dagtaskinstance: '/dagtaskinstance',
  workflowinfo: '/workflowinfo',
  workfloweditor: '/workfloweditor',
  dagworkflowinstance: '/dagworkflowinstance',
  workflowinstancedetails: '/workflowinstancedetails',
} as const;

export const JOB_TARGET: RefTarget = {
  table: 'job_info',
  labelColumn: 'job_name',
  labelField: 'jobName',
  queryCall: `${JOB_PATH}/jobinfo/queryJobInfo`,
};

export const WORKFLOW_TARGET: RefTarget = {
  table: 'workflow_info',
  labelColumn: 'wf_name',
  labelField: 'wfName',
  queryCall: `${JOB_PATH}/workflow/queryWorkflowInfo`,
};

export const WF_INSTANCE_TARGET: RefTarget = {
  table: 'workflow_instance',
  labelColumn: 'id',
  labelField: 'id',
  queryCall: `${JOB_PATH}/wfinstance/queryWorkflowInstance`,
};

export const JOB_INSTANCE_TARGET: RefTarget = {
  table: 'job_instance',
  labelColumn: 'id',
  labelField: 'id',
  queryCall: `${JOB_PATH}/instance/queryJobInstance`,
};

/** The users a job or workflow notifies when it fails (bell and e-mail). */
export const JOB_ALARM_USERS: LinkTarget = {
  table: 'sys_user',
  labelColumn: 'nickname',
  labelField: 'nickname',
  queryCall: '/api/admin/sysuser/querySysUser',
  linkTable: 'job_alarm_user',
  fromColumn: 'job_id',
  toColumn: 'user_id',
};

export const WF_ALARM_USERS: LinkTarget = {
  ...JOB_ALARM_USERS,
  linkTable: 'workflow_alarm_user',
  fromColumn: 'workflow_id',
};
