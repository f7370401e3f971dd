import type { DeskReaderRow } from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { Card, Space, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/format';
import type { AreaScreenProps } from '../../monitor/screens/area-screen-props';
import { CardReaderStatus } from '../reader/CardReaderStatus';
import { deskApi, DESK_KEYS } from './desk-api';
import { PendingWriteList } from './PendingWriteList';

/**
 * Spec /skgg/readDeviceList: this desk's card-reading service live (or how to start it), the
 * readers the service desks used (reported by the console with each desk operation: which
 * reader, which backend, by whom, last seen), and the card writes still waiting at the desks.
 */
export function DeskReaderListPage(_props: AreaScreenProps) {
  const { t } = useTranslation();
  const readers = useQuery({
    queryKey: DESK_KEYS.readers,
    queryFn: ({ signal }) => deskApi.readers(signal),
    refetchInterval: 30_000,
  });
  const columns = [
    { key: 'serial', dataIndex: 'serial', title: t('desk.readers.serial') },
    {
      key: 'backend',
      dataIndex: 'backend',
      title: t('desk.readers.backend'),
      render: (backend: string) => (
        <Tag color={backend === 'simulated' ? 'gold' : 'blue'}>
          {t(`desk.readers.backendName.${backend as 'pcsc'}`, backend)}
        </Tag>
      ),
    },
    { key: 'username', dataIndex: 'username', title: t('desk.readers.user') },
    { key: 'lastOperation', dataIndex: 'lastOperation', title: t('desk.readers.lastOperation') },
    { key: 'operations', dataIndex: 'operations', title: t('desk.readers.operations') },
    {
      key: 'firstSeenAt',
      dataIndex: 'firstSeenAt',
      title: t('desk.readers.firstSeen'),
      render: (value: string) => formatDate(value),
    },
    {
      key: 'lastSeenAt',
      dataIndex: 'lastSeenAt',
      title: t('desk.readers.lastSeen'),
      render: (value: string) => formatDate(value),
    },
  ];
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="desk-reader-list-page">
      <Card size="small" title={t('desk.readers.thisDesk')}>
        <CardReaderStatus />
      </Card>
      <Card size="small" title={t('desk.readers.title')}>
        <Table<DeskReaderRow>
          size="small"
          data-testid="desk-readers"
          rowKey={(row) => `${row.serial}:${row.backend}:${row.userId}`}
          loading={readers.isLoading}
          dataSource={readers.data ?? []}
          columns={columns}
          pagination={{ pageSize: 20, hideOnSinglePage: true }}
        />
      </Card>
      <PendingWriteList />
    </Space>
  );
}
