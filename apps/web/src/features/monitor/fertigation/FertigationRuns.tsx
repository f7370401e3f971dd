import {
  DATE_FORMAT,
  type CommandStatus,
  type FertigationRun,
  type FertigationStep,
} from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { Drawer, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { CommandStatusTag } from '../../iot/device/CommandStatusTag';
import { CommandText } from '../../iot/device/CommandText';
import { programRuns } from './fertigation-api';

/** How often the history is read again while one of its runs is under way. */
const LIVE_MS = 3_000;

const STATUS_COLORS: Record<FertigationRun['status'], string> = {
  running: 'processing',
  succeeded: 'success',
  failed: 'error',
  stopped: 'default',
};

const time = (value: string | null) => (value ? dayjs(value).format(DATE_FORMAT) : '');

/** The commands a run sent, each with its outcome (the operation record's status). */
function Steps({ run }: { run: FertigationRun }) {
  const { t } = useTranslation();
  return (
    <Table<FertigationStep>
      size="small"
      rowKey="step"
      pagination={false}
      dataSource={run.steps}
      columns={[
        { title: '#', dataIndex: 'step', width: 48 },
        {
          title: t('monitor.fertigation.command'),
          render: (_, step) => <CommandText deviceId={run.deviceId} name={step.name} part="name" />,
        },
        {
          title: t('monitor.fertigation.params'),
          render: (_, step) => (
            <CommandText
              deviceId={run.deviceId}
              name={step.name}
              params={step.params}
              part="params"
            />
          ),
        },
        { title: t('monitor.fertigation.sentAt'), render: (_, step) => time(step.at) },
        {
          title: t('monitor.fertigation.outcome'),
          render: (_, step) =>
            step.status ? <CommandStatusTag status={step.status as CommandStatus} /> : null,
        },
        { title: t('monitor.fertigation.result'), dataIndex: 'result' },
      ]}
    />
  );
}

/**
 * A program's run history: when, by whom, where it is or how it ended and why, and each step's
 * command with its outcome. Read again every few seconds while a run is under way.
 */
export function FertigationRuns({
  program,
  onClose,
}: {
  program: { id: string; name: string } | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const runs = useQuery({
    queryKey: ['monitor', 'fertigationRuns', program?.id],
    queryFn: ({ signal }) => programRuns(program!.id, signal),
    enabled: program !== undefined,
    refetchInterval: (query) =>
      query.state.data?.list.some((run) => run.status === 'running') ? LIVE_MS : false,
  });
  return (
    <Drawer
      open={program !== undefined}
      onClose={onClose}
      size="large"
      title={t('monitor.fertigation.runsOf', { program: program?.name ?? '' })}
      data-testid="fertigation-runs"
    >
      <Table<FertigationRun>
        size="small"
        rowKey="id"
        loading={runs.isLoading}
        dataSource={runs.data?.list ?? []}
        pagination={false}
        expandable={{ expandedRowRender: (run) => <Steps run={run} /> }}
        columns={[
          { title: t('monitor.fertigation.startedAt'), render: (_, run) => time(run.startedAt) },
          { title: t('monitor.fertigation.startedBy'), dataIndex: 'startedBy' },
          {
            title: t('monitor.fertigation.status'),
            render: (_, run) => (
              <Tag color={STATUS_COLORS[run.status]} data-testid="run-status">
                {t(`monitor.fertigation.runStatus.${run.status}`)}
                {run.status === 'running'
                  ? ` · ${t(`monitor.fertigation.phase.${run.phase}`)}`
                  : ''}
              </Tag>
            ),
          },
          {
            title: t('monitor.fertigation.reason'),
            render: (_, run) => (
              <Typography.Text type={run.status === 'failed' ? 'danger' : undefined}>
                {run.reason}
              </Typography.Text>
            ),
          },
          { title: t('monitor.fertigation.endedAt'), render: (_, run) => time(run.endedAt) },
        ]}
      />
    </Drawer>
  );
}
