import { liveTopics, TOAST_MS, type AlarmPush } from '@shuili/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Modal, Segmented, Space, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionStore } from '../../../app/session-store';
import { feedback } from '../../../lib/feedback';
import { formatDate } from '../../../lib/format';
import { useLiveTopic } from '../../../lib/mqtt/use-live-topic';
import { deviceApi, type AlarmRow } from './device-api';

type StateFilter = 'all' | 'open' | 'cleared';
const LEVEL_COLOR: Record<string, string> = {
  blue: 'blue',
  yellow: 'gold',
  orange: 'orange',
  red: 'red',
};

/** The device's alarms, open or cleared, acknowledged with a comment; new ones arrive live. */
export function DeviceAlarms({ deviceId }: { deviceId: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const tenantCode = useSessionStore((state) => state.user?.tenantCode);
  const [state, setState] = useState<StateFilter>('all');
  const [acking, setAcking] = useState<AlarmRow>();
  const [form] = Form.useForm<{ comment: string }>();
  const queryKey = ['iot', 'alarms', deviceId];
  const alarms = useQuery({
    queryKey: [...queryKey, state],
    queryFn: ({ signal }) =>
      deviceApi.alarms(deviceId, state === 'all' ? undefined : state, signal),
  });
  useLiveTopic(tenantCode ? liveTopics.alarms(tenantCode) : undefined, (message) => {
    const push = message.payload as AlarmPush | undefined;
    if (push?.deviceId === deviceId) void queryClient.invalidateQueries({ queryKey });
  });
  const acknowledge = useMutation({
    mutationFn: (input: { id: string; comment: string }) =>
      deviceApi.acknowledge(input.id, input.comment),
    onSuccess: async () => {
      setAcking(undefined);
      feedback.success(t('iot.alarm.acknowledged'), TOAST_MS.success / 1000);
      await queryClient.invalidateQueries({ queryKey });
    },
  });

  const columns: ColumnsType<AlarmRow> = [
    {
      title: t('iot.alarm.level'),
      dataIndex: 'level',
      render: (level: string) => (
        <Tag color={LEVEL_COLOR[level]}>{t(`iot.alarm.levels.${level}`, level)}</Tag>
      ),
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
      render: (value: AlarmRow['state'], row) =>
        value === 'open' ? (
          <Tag color="red">{t('iot.alarm.open')}</Tag>
        ) : (
          <Tag color="green">{t('iot.alarm.clearedAt', { time: formatDate(row.clearedAt) })}</Tag>
        ),
    },
    {
      title: t('iot.alarm.acknowledgement'),
      key: 'ack',
      render: (_, row) =>
        row.acknowledgedAt ? (
          `${row.acknowledgedBy ?? ''} ${formatDate(row.acknowledgedAt)} ${row.ackComment ?? ''}`
        ) : (
          <Button size="small" onClick={() => setAcking(row)} data-testid="alarm-ack">
            {t('iot.alarm.acknowledge')}
          </Button>
        ),
    },
  ];

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Segmented<StateFilter>
        value={state}
        onChange={setState}
        options={[
          { value: 'all', label: t('iot.alarm.all') },
          { value: 'open', label: t('iot.alarm.open') },
          { value: 'cleared', label: t('iot.alarm.cleared') },
        ]}
      />
      <Table<AlarmRow>
        size="small"
        rowKey="id"
        loading={alarms.isFetching}
        columns={columns}
        dataSource={alarms.data?.list ?? []}
        pagination={false}
        data-testid="device-alarms"
      />
      <Modal
        open={acking !== undefined}
        title={t('iot.alarm.acknowledge')}
        okText={t('iot.alarm.acknowledge')}
        cancelText={t('iot.cancel')}
        confirmLoading={acknowledge.isPending}
        destroyOnHidden
        onCancel={() => setAcking(undefined)}
        onOk={() =>
          void form
            .validateFields()
            .then(({ comment }) => acknowledge.mutate({ id: acking!.id, comment: comment ?? '' }))
        }
      >
        <Form form={form} layout="vertical" preserve={false}>
          <Form.Item
            name="comment"
            label={t('iot.alarm.comment')}
            rules={[{ max: 500, message: t('iot.thingModel.tooLong', { max: 500 }) }]}
          >
            <Input.TextArea rows={3} maxLength={500} showCount />
          </Form.Item>
        </Form>
      </Modal>
    </Space>
  );
}
