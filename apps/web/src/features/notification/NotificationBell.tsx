import { BellOutlined } from '@ant-design/icons';
import type { NotificationItem, NotificationType } from '@shuili/contract';
import { Badge, Button, Empty, Popover, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { formatDate, formatRelative } from '../../lib/format';
import styles from './NotificationBell.module.css';
import { MY_NOTIFICATION_PATH, notificationPath } from './notification-paths';
import { useHeadNotifications, useMarkRead } from './use-notifications';

/** Spec §2 navbar bell: unread count, the newest unread notices and messages, mark read. */
export function NotificationBell() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const head = useHeadNotifications();
  const markRead = useMarkRead();
  const [open, setOpen] = useState(false);
  const [tab, setTab] = useState<NotificationType>('notification');

  const unread = head.data?.unread ?? { notification: 0, message: 0 };
  const total = unread.notification + unread.message;

  const openItem = (item: NotificationItem) => {
    setOpen(false);
    markRead.mutate({ ids: [item.id] });
    void navigate(notificationPath(item.id), { state: { notification: item } });
  };

  const list = (type: NotificationType) => {
    const items = (head.data?.list ?? []).filter((item) => item.type === type);
    return (
      <div className={styles.list} data-testid={`notification-list-${type}`}>
        {items.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('notification.empty')} />
        ) : (
          items.map((item) => (
            <div
              key={item.id}
              role="button"
              tabIndex={0}
              className={styles.item}
              data-testid="notification-item"
              onClick={() => openItem(item)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' || event.key === ' ') {
                  event.preventDefault();
                  openItem(item);
                }
              }}
            >
              <Typography.Text strong ellipsis>
                {item.title}
              </Typography.Text>
              <p className={styles.description}>{item.description}</p>
              <time
                className={styles.time}
                dateTime={item.datetime}
                title={formatDate(item.datetime)}
              >
                {formatRelative(item.datetime)}
              </time>
            </div>
          ))
        )}
      </div>
    );
  };

  const tabLabel = (type: NotificationType, label: string) => (
    <span data-testid={`notification-tab-${type}`}>
      {label} <Badge count={unread[type]} size="small" showZero={false} />
    </span>
  );

  const panel = (
    <div className={styles.panel} data-testid="notification-panel">
      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key as NotificationType)}
        size="small"
        items={[
          {
            key: 'notification',
            label: tabLabel('notification', t('notification.tabNotification')),
            children: list('notification'),
          },
          {
            key: 'message',
            label: tabLabel('message', t('notification.tabMessage')),
            children: list('message'),
          },
        ]}
      />
      <div className={styles.footer}>
        <Button
          type="link"
          size="small"
          disabled={unread[tab] === 0}
          loading={markRead.isPending}
          onClick={() => markRead.mutate({ type: tab })}
          data-testid="notification-mark-all"
        >
          {t('notification.markAllRead')}
        </Button>
        <Link
          to={MY_NOTIFICATION_PATH}
          onClick={() => setOpen(false)}
          data-testid="notification-view-all"
        >
          {t('notification.viewAll')}
        </Link>
      </div>
    </div>
  );

  return (
    <Popover
      content={panel}
      trigger="click"
      placement="bottomRight"
      open={open}
      onOpenChange={setOpen}
    >
      <span className={styles.bell} data-testid="notification-bell" data-count={total}>
        <Badge count={total} size="small" overflowCount={99}>
          <Button type="text" icon={<BellOutlined />} aria-label={t('notification.bell')} />
        </Badge>
      </span>
    </Popover>
  );
}
