import type { CommandView } from '@shuili/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/format';
import { CommandStatusTag } from './CommandStatusTag';
import { CommandText } from './CommandText';
import { deviceApi } from './device-api';

const PAGE_SIZE = 10;

/** The device's operation records: every command sent to it, newest first. */
export function CommandRecords({ deviceId }: { deviceId: string }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const records = useQuery({
    queryKey: ['iot', 'commands', deviceId, page],
    queryFn: ({ signal }) => deviceApi.commands(deviceId, page, PAGE_SIZE, signal),
    placeholderData: keepPreviousData,
  });
  const columns: ColumnsType<CommandView> = [
    {
      title: t('iot.command.time'),
      dataIndex: 'createdAt',
      render: (value: string) => formatDate(value),
    },
    { title: t('iot.command.operator'), dataIndex: 'username' },
    {
      title: t('iot.command.name'),
      dataIndex: 'name',
      render: (name: string) => <CommandText deviceId={deviceId} name={name} part="name" />,
    },
    {
      title: t('iot.command.params'),
      dataIndex: 'params',
      render: (params: unknown, row) => (
        <CommandText deviceId={deviceId} name={row.name} params={params} part="params" />
      ),
    },
    {
      title: t('iot.command.status'),
      dataIndex: 'status',
      render: (status: CommandView['status']) => <CommandStatusTag status={status} />,
    },
    { title: t('iot.command.result'), dataIndex: 'result' },
    { title: t('iot.command.latency'), dataIndex: 'latencyMs' },
  ];
  return (
    <Table<CommandView>
      size="small"
      rowKey="id"
      loading={records.isFetching}
      columns={columns}
      dataSource={records.data?.list ?? []}
      data-testid="command-records"
      pagination={{
        current: page,
        pageSize: PAGE_SIZE,
        total: records.data?.total ?? 0,
        onChange: setPage,
        showSizeChanger: false,
      }}
    />
  );
}
