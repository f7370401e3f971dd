import { BellOutlined } from '@ant-design/icons';
import { Badge, Button, Popover } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loadFeatureStrings } from '../../i18n/i18n';
import styles from './NotificationBell.module.css';
import { useBellLive } from './use-bell-live';
import { useHeadNotifications } from './use-notifications';

// The dropdown (and the alarm tab's strings) loads when the bell is first opened.
const BellPanel = lazy(() =>
  Promise.all([import('./BellPanel'), loadFeatureStrings(['iot'])]).then(([module]) => ({
    default: module.BellPanel,
  })),
);

/**
 * Spec §2 navbar bell: unread notices and messages plus the alarms not yet acknowledged, kept
 * current live; the dropdown lists them.
 */
export function NotificationBell() {
  const { t } = useTranslation();
  const head = useHeadNotifications();
  const [open, setOpen] = useState(false);
  useBellLive();

  const unread = head.data?.unread ?? { notification: 0, message: 0 };
  const total = unread.notification + unread.message + (head.data?.alarms ?? 0);

  // An empty panel of the right size while the first counts or the panel's code arrive.
  const waiting = <div className={styles.panel} />;
  const panel = head.data ? (
    <Suspense fallback={waiting}>
      <BellPanel head={head.data} onLeave={() => setOpen(false)} />
    </Suspense>
  ) : (
    waiting
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
