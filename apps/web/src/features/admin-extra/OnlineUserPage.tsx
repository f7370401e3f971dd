import { ReloadOutlined } from '@ant-design/icons';
import type { OnlineSession } from '@shuili/contract';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  Form,
  Input,
  Space,
  Table,
  Tag,
  Tooltip,
  Typography,
  type TableColumnsType,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePermission } from '../../core/permission';
import { formatDate, formatRelative } from '../../lib/format';
import { adminExtraApi, adminExtraKeys } from './admin-extra-api';
import { isKnownGrantType } from './grant-types';
import { SignOutUserButton } from './SignOutUserButton';
import { agentText } from './user-agent';
import styles from './AdminExtra.module.css';

/** The list refreshes itself this often: sessions come and go. */
const REFRESH_MS = 30_000;
const PAGE_SIZES = [10, 20, 50, 100];

/** Spec §2 /admin/onlinesysuser: who is signed in, from where, since when; sign them out. */
export function OnlineUserPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const mayRemove = usePermission('onlinesysuser:remove');
  const [form] = Form.useForm<{ username?: string }>();
  const [username, setUsername] = useState<string | undefined>();
  const [page, setPage] = useState({ currentPage: 1, pageSize: PAGE_SIZES[0]! });

  const query = { ...page, username };
  const sessions = useQuery({
    queryKey: [...adminExtraKeys.online, query],
    queryFn: ({ signal }) => adminExtraApi.onlineUsers(query, signal),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: adminExtraKeys.online });

  const when = (value: string) => (
    <Tooltip title={formatDate(value)}>
      <span>{formatRelative(value, { t })}</span>
    </Tooltip>
  );

  const columns: TableColumnsType<OnlineSession> = [
    {
      key: 'user',
      title: t('adminExtra.online.user'),
      render: (_, row) => (
        <Space size={4} wrap>
          <span>{row.nickname || row.username}</span>
          {row.nickname && <Typography.Text type="secondary">({row.username})</Typography.Text>}
          {row.current && <Tag color="blue">{t('adminExtra.online.you')}</Tag>}
        </Space>
      ),
    },
    {
      key: 'grantType',
      dataIndex: 'grantType',
      title: t('adminExtra.online.grantType'),
      render: (value: string) => (
        <Tag>{isKnownGrantType(value) ? t(`adminExtra.online.grantTypes.${value}`) : value}</Tag>
      ),
    },
    { key: 'ip', dataIndex: 'ip', title: t('adminExtra.online.ip') },
    {
      key: 'client',
      title: t('adminExtra.online.client'),
      render: (_, row) =>
        row.userAgent ? (
          <Tooltip title={row.userAgent}>
            <span data-testid="online-client">
              {agentText(row.userAgent) || t('adminExtra.online.unknownClient')}
            </span>
          </Tooltip>
        ) : (
          t('adminExtra.online.unknownClient')
        ),
    },
    {
      key: 'createdAt',
      title: t('adminExtra.online.since'),
      render: (_, row) => when(row.createdAt),
    },
    {
      key: 'lastSeenAt',
      title: t('adminExtra.online.lastActive'),
      render: (_, row) => when(row.lastSeenAt),
    },
    {
      key: 'expiresAt',
      title: t('adminExtra.online.expires'),
      render: (_, row) => formatDate(row.expiresAt),
    },
  ];
  if (mayRemove) {
    columns.push({
      key: 'actions',
      title: t('adminExtra.actions'),
      fixed: 'right',
      render: (_, row) => <SignOutUserButton username={row.username} onDone={refresh} />,
    });
  }

  const search = (values: { username?: string }) => {
    setUsername(values.username?.trim() || undefined);
    setPage((current) => ({ ...current, currentPage: 1 }));
  };

  return (
    <Card title={t('route.onlinesysuser')} data-testid="online-users-page">
      <Form form={form} layout="inline" onFinish={search} className={styles.searchForm}>
        <Form.Item name="username" label={t('adminExtra.online.username')}>
          <Input allowClear maxLength={64} data-testid="online-search-username" />
        </Form.Item>
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" data-testid="online-search">
              {t('adminExtra.search')}
            </Button>
            <Button
              onClick={() => {
                form.resetFields();
                search({});
              }}
            >
              {t('adminExtra.resetSearch')}
            </Button>
          </Space>
        </Form.Item>
      </Form>
      <div className={styles.toolbar}>
        <Typography.Text type="secondary">{t('adminExtra.online.autoRefresh')}</Typography.Text>
        <Tooltip title={t('adminExtra.refresh')}>
          <Button
            icon={<ReloadOutlined />}
            aria-label={t('adminExtra.refresh')}
            loading={sessions.isFetching}
            onClick={refresh}
          />
        </Tooltip>
      </div>
      <Table<OnlineSession>
        rowKey="sessionId"
        columns={columns}
        dataSource={sessions.data?.list ?? []}
        loading={sessions.isPending}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: page.currentPage,
          pageSize: page.pageSize,
          total: sessions.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZES,
          showTotal: (total) => t('adminExtra.total', { total }),
          onChange: (currentPage, pageSize) =>
            setPage((current) => ({
              currentPage: pageSize === current.pageSize ? currentPage : 1,
              pageSize,
            })),
        }}
        data-testid="online-users-table"
      />
    </Card>
  );
}
