import { Button, Modal, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { clearErrorLog, useErrorLogStore, type ErrorLogEntry } from '../core/error-log';
import styles from './Navbar.module.css';

export interface ErrorLogDialogProps {
  open: boolean;
  onClose: () => void;
}

/** Spec §8 error log dialog: message, info, url and stack of each entry, and a way to clear them. */
export function ErrorLogDialog({ open, onClose }: ErrorLogDialogProps) {
  const { t } = useTranslation();
  const logs = useErrorLogStore((state) => state.logs);
  return (
    <Modal
      open={open}
      title={t('errorLog.title')}
      width={960}
      onCancel={onClose}
      footer={[
        <Button
          key="clear"
          danger
          onClick={() => {
            clearErrorLog();
            onClose();
          }}
          data-testid="error-log-clear"
        >
          {t('errorLog.clear')}
        </Button>,
        <Button key="close" type="primary" onClick={onClose}>
          {t('errorLog.close')}
        </Button>,
      ]}
    >
      <Table<ErrorLogEntry>
        data-testid="error-log-table"
        size="small"
        rowKey={(entry) => `${entry.time}-${logs.indexOf(entry)}`}
        dataSource={logs}
        pagination={false}
        scroll={{ y: 420 }}
        columns={[
          {
            key: 'message',
            title: t('errorLog.message'),
            width: 200,
            render: (_, entry) => (
              <Typography.Text type="danger" strong>
                {entry.message}
              </Typography.Text>
            ),
          },
          {
            key: 'info',
            title: t('errorLog.info'),
            width: 200,
            render: (_, entry) => <pre className={styles.stack}>{entry.info}</pre>,
          },
          {
            key: 'url',
            title: t('errorLog.url'),
            dataIndex: 'url',
            width: 180,
            ellipsis: true,
          },
          {
            key: 'stack',
            title: t('errorLog.stack'),
            render: (_, entry) => <pre className={styles.stack}>{entry.stack}</pre>,
          },
        ]}
      />
    </Modal>
  );
}
