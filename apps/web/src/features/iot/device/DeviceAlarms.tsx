import { liveTopics, type AlarmPush } from '@shuili/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Segmented, Space, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionStore } from '../../../core/session-store';
import { formatDate } from '../../../lib/format';
import { useLiveTopic } from '../../../core/live/use-live-topic';
import { AcknowledgeDialog } from '../alarm/AcknowledgeDialog';
import { AlarmAckTag, AlarmLevelTag, AlarmStateTag } from '../alarm/AlarmTags';
import { deviceAlarmsKey } from '../alarm/use-active-alarms';
import { deviceApi, type AlarmRow } from './device-api';

type StateFilter = 'all' | 'open' | 'cleared';

/**
 * The device's alarms, open or cleared, acknowledged with a comment (one, or the checked ones);
 * new ones arrive live.
 */
export function DeviceAlarms({ deviceId }: { deviceId: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const tenantCode = useSessionStore((state) => state.user?.tenantCode);
  const [state, setState] = useState<StateFilter>('all');
  const [acking, setAcking] = useState<string[]>([]);
  const [checked, setChecked] = useState<string[]>([]);
  const queryKey = deviceAlarmsKey(deviceId);
  const alarms = useQuery({
    queryKey: [...queryKey, state],
    queryFn: ({ signal }) =>
      deviceApi.alarms(deviceId, state === 'all' ? undefined : state, signal),
  });
  useLiveTopic(tenantCode ? liveTopics.alarms(tenantCode) : undefined, (message) => {
    const push = message.payload as AlarmPush | undefined;
    if (push?.deviceId === deviceId) void queryClient.invalidateQueries({ queryKey });
  });

  const columns: ColumnsType<AlarmRow> = [
    {
      title: t('iot.alarm.level'),
      dataIndex: 'level',
      render: (level: string) => <AlarmLevelTag level={level} />,
    },
    { title: t('iot.alarm.rule'), dataIndex: 'ruleIdLabel' },
    { title: t('iot.alarm.property'), dataIndex: 'propertyKey' },
    { title: t('iot.alarm.value'), dataIndex: 'value' },
    { title: t('iot.alarm.threshold'), dataIndex: 'threshold' },
    {
      title: t('iot.alarm.started'),
      dataIndex: 'startedAt',
      render: (value: string) => formatDate(value),
    },
    {
      title: t('iot.alarm.state'),
      dataIndex: 'state',
      render: (value: AlarmRow['state'], row) => (
        <AlarmStateTag state={value} clearedAt={row.clearedAt} />
      ),
    },
    {
      title: t('iot.alarm.acknowledgement'),
      key: 'ack',
      render: (_, row) =>
        row.acknowledgedAt ? (
          <AlarmAckTag by={row.acknowledgedBy} at={row.acknowledgedAt} comment={row.ackComment} />
        ) : (
          <Button size="small" onClick={() => setAcking([row.id])} data-testid="alarm-ack">
            {t('iot.alarm.acknowledge')}
          </Button>
        ),
    },
  ];

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space wrap>
        <Segmented<StateFilter>
          value={state}
          onChange={setState}
          options={[
            { value: 'all', label: t('iot.alarm.all') },
            { value: 'open', label: t('iot.alarm.open') },
            { value: 'cleared', label: t('iot.alarm.cleared') },
          ]}
        />
        <Button
          disabled={checked.length === 0}
          onClick={() => setAcking(checked)}
          data-testid="alarm-ack-selected"
        >
          {t('iot.alarm.acknowledgeSelected', { count: checked.length })}
        </Button>
      </Space>
      <Table<AlarmRow>
        size="small"
        rowKey="id"
        loading={alarms.isFetching}
        columns={columns}
        dataSource={alarms.data?.list ?? []}
        pagination={false}
        rowSelection={{
          selectedRowKeys: checked,
          onChange: (keys) => setChecked(keys.map(String)),
          // Only what is not acknowledged yet can be checked for acknowledging.
          getCheckboxProps: (row) => ({ disabled: row.acknowledgedAt !== null }),
        }}
        data-testid="device-alarms"
      />
      <AcknowledgeDialog
        ids={acking}
        onClose={() => setAcking([])}
        onDone={() => {
          setAcking([]);
          setChecked([]);
          void queryClient.invalidateQueries({ queryKey });
        }}
      />
    </Space>
  );
}
