import type { NotificationItem } from '@shuili/contract';
import { Empty, Space, Typography } from 'antd';
import type { ReactNode } from 'react';
import { formatDate, formatRelative } from '../../lib/format';
import styles from './NotificationBell.module.css';

export interface BellListProps {
  items: readonly NotificationItem[];
  /** What an empty list says. */
  empty: string;
  onOpen: (item: NotificationItem) => void;
  /** Shown before an entry's title (an alarm's level). */
  tagOf?: (item: NotificationItem) => ReactNode;
  testId: string;
  itemTestId: string;
}

/** Entries of the bell's dropdown: each opens by click or keyboard, unread ones in bold. */
export function BellList({ items, empty, onOpen, tagOf, testId, itemTestId }: BellListProps) {
  return (
    <div className={styles.list} data-testid={testId}>
      {items.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} />
      ) : (
        items.map((item) => (
          <div
            key={item.id}
            role="button"
            tabIndex={0}
            className={styles.item}
            data-testid={itemTestId}
            onClick={() => onOpen(item)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' || event.key === ' ') {
                event.preventDefault();
                onOpen(item);
              }
            }}
          >
            <Space size={4}>
              {tagOf?.(item)}
              <Typography.Text strong={!item.read} ellipsis>
                {item.title}
              </Typography.Text>
            </Space>
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
}
