import { BugOutlined } from '@ant-design/icons';
import { Badge, Button, Tooltip } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorLogStore } from '../core/error-log';

// The dialog (and its table) loads when first opened: most sessions never show it.
const ErrorLogDialog = lazy(() =>
  import('./ErrorLogDialog').then((module) => ({ default: module.ErrorLogDialog })),
);

/** Spec §8 error log: a bug in the navbar once uncaught errors were recorded, opening their list. */
export function ErrorLogButton() {
  const { t } = useTranslation();
  const count = useErrorLogStore((state) => state.logs.length);
  const [open, setOpen] = useState(false);
  if (count === 0 && !open) return null;

  return (
    <>
      <Tooltip title={t('errorLog.title')}>
        <Badge count={count} size="small" offset={[-4, 4]}>
          <Button
            type="text"
            danger
            aria-label={t('errorLog.title')}
            icon={<BugOutlined />}
            onClick={() => setOpen(true)}
            data-testid="error-log-button"
          />
        </Badge>
      </Tooltip>
      {open && (
        <Suspense fallback={null}>
          <ErrorLogDialog open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
