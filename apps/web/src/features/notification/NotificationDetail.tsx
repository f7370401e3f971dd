import type { NotificationItem } from '@shuili/contract';
import { Descriptions, Modal, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../lib/format';
import { htmlToText } from './html-to-text';
import { NotificationTypeTag, PriorityText } from './NotificationTags';

/** One notification in full. Its rich text is shown as plain text, never as markup. */
export function NotificationDetail({
  item,
  onClose,
}: {
  item: NotificationItem | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const text = useMemo(() => (item ? htmlToText(item.content) : ''), [item]);
  return (
    <Modal
      open={!!item}
      title={item?.title ?? t('notification.detail')}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      width={640}
    >
      {item && (
        <div data-testid="notification-detail">
          <Descriptions
            size="small"
            column={2}
            items={[
              {
                key: 'type',
                label: t('notification.type'),
                children: <NotificationTypeTag type={item.type} />,
              },
              {
                key: 'priority',
                label: t('notification.priority'),
                children: <PriorityText priority={item.priority} />,
              },
              {
                key: 'publisher',
                label: t('notification.publisher'),
                children: item.publisher ?? '',
              },
              {
                key: 'datetime',
                label: t('notification.datetime'),
                children: formatDate(item.datetime),
              },
            ]}
          />
          <Typography.Paragraph
            data-testid="notification-content"
            style={{ whiteSpace: 'pre-wrap', marginTop: 16 }}
          >
            {text}
          </Typography.Paragraph>
        </div>
      )}
    </Modal>
  );
}
