import {
  INSTANCE_TRIGGER_OPTIONS,
  JOB_CALLS,
  jobInstanceEntity,
  type InstanceLogLine,
  type InstanceSubTask,
  type JobInstanceDetail,
} from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Descriptions, Drawer, Empty, Spin, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../lib/format';
import { HttpError, http } from '../../lib/http';
import { useLabel } from '../../resource/field-label';
import { isEnded } from './instance-rules';
import { InstanceStatusTag } from './InstanceStatusTag';

/** A running instance's details refresh this often (its log grows, its state moves). */
const LIVE_MS = 1000;
const FIELDS = jobInstanceEntity.fields;
const LEVEL_COLOURS: Record<InstanceLogLine['level'], string> = {
  info: 'inherit',
  warn: '#d48806',
  error: '#cf1322',
};

export const instanceDetailKey = (id: string | undefined) => ['jobs', 'instance-detail', id];

/**
 * One instance (spec /taskinstance details): its fields, params and result, its sub-tasks and
 * its log, refreshed every second until it ends. Spec §8: no instance, no details.
 */
export function InstanceDetailDrawer({
  instanceId,
  onClose,
}: {
  /** Open when set; an empty id is a row that made no instance. */
  instanceId: string | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const label = useLabel();
  const open = instanceId !== undefined;
  const detail = useQuery({
    queryKey: instanceDetailKey(instanceId),
    queryFn: ({ signal }) =>
      http.get<JobInstanceDetail>(JOB_CALLS.queryInstanceDetail, {
        params: { id: instanceId },
        signal,
        silent: true,
      }),
    enabled: !!instanceId,
    retry: false,
    refetchInterval: (query) =>
      query.state.data && !isEnded(query.state.data.status) && !query.state.error ? LIVE_MS : false,
  });
  const missing =
    instanceId === '' || (detail.error instanceof HttpError && detail.error.status === 404);
  const data = detail.data;
  const trigger = INSTANCE_TRIGGER_OPTIONS.find((option) => option.value === data?.triggerType);

  const subTaskColumns = [
    { key: 'id', dataIndex: 'id', title: t('jobs.detail.subTaskId') },
    { key: 'taskName', dataIndex: 'taskName', title: t('jobs.detail.taskName') },
    {
      key: 'status',
      title: label(FIELDS.status!.label),
      render: (_: unknown, task: InstanceSubTask) => <InstanceStatusTag status={task.status} />,
    },
    { key: 'node', dataIndex: 'node', title: t('jobs.detail.node') },
    { key: 'attempts', dataIndex: 'attempts', title: t('jobs.detail.attempts') },
    {
      key: 'startTime',
      title: label(FIELDS.startTime!.label),
      render: (_: unknown, task: InstanceSubTask) => formatDate(task.startTime),
    },
    {
      key: 'finishedTime',
      title: label(FIELDS.finishedTime!.label),
      render: (_: unknown, task: InstanceSubTask) => formatDate(task.finishedTime),
    },
    { key: 'result', dataIndex: 'result', title: label(FIELDS.result!.label), ellipsis: true },
  ];

  return (
    <Drawer
      open={open}
      onClose={onClose}
      size={760}
      title={t('jobs.detail.title', { id: instanceId ?? '' })}
      destroyOnHidden
      data-testid="instance-detail"
    >
      {missing && (
        <Alert
          type="warning"
          showIcon
          title={t('jobs.detail.missing')}
          data-testid="instance-missing"
        />
      )}
      {!missing && detail.error && <Alert type="error" showIcon title={detail.error.message} />}
      {!missing && !data && detail.isFetching && <Spin />}
      {data && (
        <>
          <Descriptions
            size="small"
            bordered
            column={2}
            data-testid="instance-detail-fields"
            items={[
              { key: 'id', label: t('jobs.instanceId'), children: data.id },
              {
                key: 'job',
                label: label(FIELDS.jobId!.label),
                children: `${data.jobName} (${data.jobId})`,
              },
              {
                key: 'status',
                label: label(FIELDS.status!.label),
                children: <InstanceStatusTag status={data.status} />,
              },
              {
                key: 'trigger',
                label: label(FIELDS.triggerType!.label),
                children: trigger ? label(trigger.label) : data.triggerType,
              },
              {
                key: 'expected',
                label: label(FIELDS.expectedTriggerTime!.label),
                children: formatDate(data.expectedTriggerTime),
              },
              {
                key: 'triggerTime',
                label: label(FIELDS.triggerTime!.label),
                children: formatDate(data.triggerTime),
              },
              {
                key: 'start',
                label: label(FIELDS.startTime!.label),
                children: formatDate(data.startTime),
              },
              {
                key: 'finished',
                label: label(FIELDS.finishedTime!.label),
                children: formatDate(data.finishedTime),
              },
              {
                key: 'runningTimes',
                label: label(FIELDS.runningTimes!.label),
                children: data.runningTimes,
              },
              {
                key: 'tracker',
                label: label(FIELDS.taskTrackerAddress!.label),
                children: data.taskTrackerAddress ?? '',
              },
              ...(data.wfInstanceId
                ? [
                    {
                      key: 'wf',
                      label: label(FIELDS.wfInstanceId!.label),
                      children: `${data.wfInstanceId}${data.wfNodeId ? ` / ${data.wfNodeId}` : ''}`,
                    },
                  ]
                : []),
              {
                key: 'params',
                span: 2,
                label: label(FIELDS.instanceParams!.label),
                children: <pre style={PRE}>{data.instanceParams ?? ''}</pre>,
              },
              {
                key: 'result',
                span: 2,
                label: label(FIELDS.result!.label),
                children: (
                  <pre style={PRE} data-testid="instance-result">
                    {data.result ?? ''}
                  </pre>
                ),
              },
            ]}
          />
          {data.subTasks.length > 0 && (
            <>
              <Typography.Title level={5} style={{ marginTop: 16 }}>
                {t('jobs.detail.subTasks', { count: data.subTasks.length })}
              </Typography.Title>
              <Table<InstanceSubTask>
                size="small"
                rowKey="id"
                columns={subTaskColumns}
                dataSource={data.subTasks}
                pagination={{ pageSize: 10 }}
                scroll={{ x: 'max-content' }}
                data-testid="instance-subtasks"
              />
            </>
          )}
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            {t('jobs.detail.log')}
            {!isEnded(data.status) && (
              <Typography.Text type="secondary" style={{ fontWeight: 'normal', marginLeft: 8 }}>
                {t('jobs.detail.live')}
              </Typography.Text>
            )}
          </Typography.Title>
          {data.logs.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('jobs.detail.noLog')} />
          ) : (
            <div style={LOG} data-testid="instance-log">
              {data.logs.map((line, index) => (
                <div
                  key={index}
                  style={{ color: LEVEL_COLOURS[line.level] }}
                  data-testid="instance-log-line"
                  data-level={line.level}
                >
                  {formatDate(line.at)} [{line.level.toUpperCase()}] [{line.node}] {line.line}
                </div>
              ))}
            </div>
          )}
        </>
      )}
    </Drawer>
  );
}

const PRE = { margin: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-all' } as const;
const LOG = {
  fontFamily: 'monospace',
  fontSize: 12,
  whiteSpace: 'pre-wrap',
  wordBreak: 'break-all',
  maxHeight: 360,
  overflowY: 'auto',
  padding: 8,
  border: '1px solid rgba(128,128,128,0.3)',
  borderRadius: 4,
} as const;
