import type { NotificationType } from '@shuili/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/** A notice or a message. */
export function NotificationTypeTag({ type }: { type: NotificationType }) {
  const { t } = useTranslation();
  return (
    <Tag color={type === 'notification' ? 'blue' : 'green'}>{t(`notification.types.${type}`)}</Tag>
  );
}

const PRIORITIES = ['high', 'normal', 'low'] as const;
type KnownPriority = (typeof PRIORITIES)[number];

/** A priority in the interface language; one the console does not know is shown as sent. */
export function PriorityText({ priority }: { priority: string }) {
  const { t } = useTranslation();
  const known = (PRIORITIES as readonly string[]).includes(priority);
  return <>{known ? t(`notification.priorities.${priority as KnownPriority}`) : priority}</>;
}
