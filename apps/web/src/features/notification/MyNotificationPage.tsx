import type { NotificationItem, NotificationType } from '@shuili/contract';
import { TOAST_MS } from '@shuili/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Card, Select, Space, Table, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router';
import { feedback } from '../../lib/feedback';
import { formatDate, formatRelative } from '../../lib/format';
import styles from './MyNotificationPage.module.css';
import { NotificationDetail } from './NotificationDetail';
import { NotificationTypeTag, PriorityText } from './NotificationTags';
import { NOTIFICATION_KEY, useMarkRead, useMyNotifications } from './use-notifications';

type ReadFilter = 'all' | 'unread' | 'read';
const PAGE_SIZES = [10, 20, 50, 100];

/** An item handed over by the bell when it opened this page on it. */
function stateItem(state: unknown): NotificationItem | undefined {
  return state && typeof state === 'object' && 'notification' in state
    ? (state.notification as NotificationItem)
    : undefined;
}

/** Spec §2 /mynotification: the user's notices and messages with paging, filters and read state. */
export function MyNotificationPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const queryClient = useQueryClient();
  const [searchParams, setSearchParams] = useSearchParams();
  const [currentPage, setCurrentPage] = useState(1);
  const [pageSize, setPageSize] = useState(10);
  const [type, setType] = useState<NotificationType | 'all'>('all');
  const [readFilter, setReadFilter] = useState<ReadFilter>('all');
  const markRead = useMarkRead();

  const page = useMyNotifications({
    currentPage,
    pageSize,
    type: type === 'all' ? undefined : type,
    read: readFilter === 'all' ? undefined : readFilter === 'read',
  });

  const openId = searchParams.get('id');
  const openItem = openId ? findItem(openId) : undefined;

  function findItem(id: string): NotificationItem | undefined {
    const fromState = stateItem(location.state);
    if (fromState?.id === id) return fromState;
    for (const [, data] of queryClient.getQueriesData<{ list?: NotificationItem[] }>({
      queryKey: NOTIFICATION_KEY,
    })) {
      const found = data?.list?.find((item) => item.id === id);
      if (found) return found;
    }
    return undefined;
  }

  const open = (item: NotificationItem) => {
    if (!item.read) markRead.mutate({ ids: [item.id] });
    setSearchParams({ id: item.id }, { state: { notification: item } });
  };

  const close = () => setSearchParams({}, { replace: true });

  const markAll = () =>
    markRead.mutate(type === 'all' ? {} : { type }, {
      onSuccess: ({ marked }) =>
        feedback.success(t('notification.marked', { count: marked }), TOAST_MS.success / 1000),
    });

  const columns: TableColumnsType<NotificationItem> = [
    {
      key: 'read',
      title: t('notification.readState'),
      width: 100,
      render: (_, item) => (
        <span data-testid="notification-read-state" data-read={item.read}>
          <Badge
            status={item.read ? 'default' : 'processing'}
            text={t(item.read ? 'notification.readStates.read' : 'notification.readStates.unread')}
          />
        </span>
      ),
    },
    {
      key: 'type',
      title: t('notification.type'),
      width: 100,
      render: (_, item) => <NotificationTypeTag type={item.type} />,
    },
    {
      key: 'title',
      title: t('notification.columnTitle'),
      ellipsis: true,
      render: (_, item) => (
        <div className={styles.titleCell}>
          <Typography.Link
            strong={!item.read}
            onClick={() => open(item)}
            data-testid="notification-title"
          >
            {item.title}
          </Typography.Link>
          <Typography.Text type="secondary" ellipsis className={styles.description}>
            {item.description}
          </Typography.Text>
        </div>
      ),
    },
    {
      key: 'priority',
      title: t('notification.priority'),
      width: 100,
      render: (_, item) => <PriorityText priority={item.priority} />,
    },
    {
      key: 'publisher',
      title: t('notification.publisher'),
      width: 140,
      render: (_, item) => item.publisher ?? '',
    },
    {
      key: 'datetime',
      title: t('notification.datetime'),
      width: 180,
      render: (_, item) => (
        <time dateTime={item.datetime} title={formatRelative(item.datetime)}>
          {formatDate(item.datetime)}
        </time>
      ),
    },
    {
      key: 'actions',
      title: t('notification.actions'),
      width: 160,
      render: (_, item) => (
        <Space size="small">
          <Button size="small" type="link" onClick={() => open(item)}>
            {t('notification.open')}
          </Button>
          {!item.read && (
            <Button
              size="small"
              type="link"
              onClick={() => markRead.mutate({ ids: [item.id] })}
              data-testid="notification-mark-read"
            >
              {t('notification.markRead')}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card title={t('notification.title')} data-testid="my-notification">
      <Space wrap className={styles.toolbar}>
        <Select
          value={type}
          style={{ width: 140 }}
          aria-label={t('notification.type')}
          data-testid="notification-type-filter"
          onChange={(value) => {
            setType(value);
            setCurrentPage(1);
          }}
          options={[
            { value: 'all', label: t('notification.allTypes') },
            { value: 'notification', label: t('notification.types.notification') },
            { value: 'message', label: t('notification.types.message') },
          ]}
        />
        <Select
          value={readFilter}
          style={{ width: 120 }}
          aria-label={t('notification.readState')}
          data-testid="notification-read-filter"
          onChange={(value) => {
            setReadFilter(value);
            setCurrentPage(1);
          }}
          options={(['all', 'unread', 'read'] as const).map((value) => ({
            value,
            label: t(`notification.readStates.${value}`),
          }))}
        />
        <Button
          onClick={markAll}
          loading={markRead.isPending}
          data-testid="notification-mark-all-page"
        >
          {t('notification.markAllRead')}
        </Button>
        <Button onClick={() => void page.refetch()}>{t('notification.refresh')}</Button>
      </Space>
      <Table<NotificationItem>
        rowKey="id"
        columns={columns}
        dataSource={page.data?.list ?? []}
        loading={page.isFetching}
        tableLayout="fixed"
        scroll={{ x: 960 }}
        data-testid="notification-table"
        pagination={{
          current: currentPage,
          pageSize,
          total: page.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZES,
          showTotal: (total) => t('notification.total', { total }),
          onChange: (nextPage, nextSize) => {
            setCurrentPage(nextSize === pageSize ? nextPage : 1);
            setPageSize(nextSize);
          },
        }}
      />
      <NotificationDetail item={openItem} onClose={close} />
    </Card>
  );
}
