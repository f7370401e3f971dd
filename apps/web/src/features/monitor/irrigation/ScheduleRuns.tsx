import { DATE_FORMAT, type AreaDef, type ScheduleRun } from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { Segmented, Space, Table, Tag } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Translate } from '../../../resource/field-rules';
import { scheduleRuns } from './irrigation-api';
import { runReason } from './run-reason';

/** How often the list is read again (runs happen on the server's clock). */
const REFRESH_MS = 15_000;

const DECISION_COLORS: Record<string, string> = {
  started: 'processing',
  opened: 'processing',
  stopped: 'success',
  closed: 'success',
  skipped: 'warning',
  idle: 'default',
  watering: 'blue',
};

/**
 * The newest runs of the rotation schedules or soil-moisture rules: when, which, what it
 * decided and why (e.g. skipped after rain at the nearest weather station), on which node.
 */
export function ScheduleRuns({ kind: fixed, id }: { kind?: 'rotation' | 'soilRule'; id?: string }) {
  const { t } = useTranslation();
  const [chosen, setChosen] = useState<'rotation' | 'soilRule'>(fixed ?? 'rotation');
  const kind = fixed ?? chosen;
  const runs = useQuery({
    queryKey: ['monitor', 'scheduleRuns', kind, id],
    queryFn: ({ signal }) => scheduleRuns(kind, id, signal),
    refetchInterval: REFRESH_MS,
  });
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {!fixed && (
        <Segmented
          value={kind}
          onChange={(value) => setChosen(value as 'rotation' | 'soilRule')}
          options={[
            { value: 'rotation', label: t('monitor.irrigation.rotationsTab') },
            { value: 'soilRule', label: t('monitor.irrigation.soilRulesTab') },
          ]}
          data-testid="runs-kind"
        />
      )}
      <Table<ScheduleRun>
        size="small"
        rowKey="id"
        loading={runs.isFetching && !runs.data}
        dataSource={runs.data ?? []}
        pagination={{ pageSize: 20 }}
        data-testid="schedule-runs"
        columns={[
          {
            title: t('monitor.irrigation.runAt'),
            render: (_, run) => dayjs(run.fireAt).format(DATE_FORMAT),
            width: 170,
          },
          { title: t('monitor.irrigation.runOf'), dataIndex: 'ownerName', width: 180 },
          {
            title: t('monitor.irrigation.runWhat'),
            render: (_, run) => (t as Translate)(`monitor.irrigation.what.${run.what}`),
            width: 90,
          },
          {
            title: t('monitor.irrigation.decision'),
            render: (_, run) =>
              run.decision ? (
                <Tag color={DECISION_COLORS[run.decision] ?? 'default'}>
                  {(t as Translate)(`monitor.irrigation.decisionName.${run.decision}`, {
                    defaultValue: run.decision,
                  })}
                </Tag>
              ) : (
                <Tag color={run.state === 'failed' ? 'error' : 'default'}>{run.state}</Tag>
              ),
            width: 110,
          },
          {
            title: t('monitor.irrigation.why'),
            render: (_, run) => runReason(t as Translate, run),
          },
          { title: t('monitor.irrigation.node'), dataIndex: 'node', width: 160, ellipsis: true },
        ]}
      />
    </Space>
  );
}

/** The configuration tab: the runs of rotation schedules or soil rules, chosen by a switch. */
export function ScheduleRunsTab(_props: { area: AreaDef }) {
  return <ScheduleRuns />;
}
