import type { HeadNotification, NotificationItem, NotificationType } from '@shuili/contract';
import { Badge, Button, Tabs } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { BellAlarms, BellAlarmsLabel } from '../iot/alarm/BellAlarms';
import { BellList } from './BellList';
import styles from './NotificationBell.module.css';
import { MY_NOTIFICATION_PATH, notificationPath } from './notification-paths';
import { useMarkRead } from './use-notifications';

type Tab = NotificationType | 'alarm';

/**
 * The bell's dropdown: the newest unread notices and messages (mark read), and the alarms not
 * yet acknowledged. Loaded when the bell is first opened.
 */
export function BellPanel({ head, onLeave }: { head: HeadNotification; onLeave: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const markRead = useMarkRead();
  const [tab, setTab] = useState<Tab>(head.alarms > 0 ? 'alarm' : 'notification');
  const { unread } = head;

  const openItem = (item: NotificationItem) => {
    onLeave();
    markRead.mutate({ ids: [item.id] });
    void navigate(notificationPath(item.id), { state: { notification: item } });
  };

  const list = (type: NotificationType) => {
    const items = head.list.filter((item) => item.type === type && !item.alarm);
    return (
      <BellList
        items={items}
        empty={t('notification.empty')}
        onOpen={openItem}
        testId={`notification-list-${type}`}
        itemTestId="notification-item"
      />
    );
  };

  const tabLabel = (type: NotificationType, label: string) => (
    <span data-testid={`notification-tab-${type}`}>
      {label} <Badge count={unread[type]} size="small" showZero={false} />
    </span>
  );

  const readFooter = (type: NotificationType) => (
    <div className={styles.footer}>
      <Button
        type="link"
        size="small"
        disabled={unread[type] === 0}
        loading={markRead.isPending}
        onClick={() => markRead.mutate({ type })}
        data-testid="notification-mark-all"
      >
        {t('notification.markAllRead')}
      </Button>
      <Link to={MY_NOTIFICATION_PATH} onClick={onLeave} data-testid="notification-view-all">
        {t('notification.viewAll')}
      </Link>
    </div>
  );

  return (
    <div className={styles.panel} data-testid="notification-panel">
      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key as Tab)}
        size="small"
        items={[
          ...(['notification', 'message'] as const).map((type) => ({
            key: type,
            label: tabLabel(
              type,
              type === 'notification'
                ? t('notification.tabNotification')
                : t('notification.tabMessage'),
            ),
            children: list(type),
          })),
          {
            key: 'alarm',
            label: <BellAlarmsLabel count={head.alarms} />,
            children: (
              <BellAlarms items={head.list.filter((item) => item.alarm)} onLeave={onLeave} />
            ),
          },
        ]}
      />
      {/* The alarm tab has its own footer: alarms leave the bell when acknowledged, not read. */}
      {tab !== 'alarm' && readFooter(tab)}
    </div>
  );
}
