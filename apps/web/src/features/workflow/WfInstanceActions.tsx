import type { WfInstanceState } from '@shuili/contract';
import { Button, Popconfirm } from 'antd';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../lib/feedback';
import { useWfInstanceAction } from './workflow-api';

interface WfInstanceActionsProps {
  id: string;
  status: WfInstanceState | undefined;
  /** Buttons as links (a list's row) or as buttons (the details page). */
  compact?: boolean;
}

/** Stop a running run; retry a failed one's failed nodes (and what they blocked). */
export function WfInstanceActions({ id, status, compact }: WfInstanceActionsProps) {
  const { t } = useTranslation();
  const action = useWfInstanceAction();
  const look = compact ? ({ type: 'link', size: 'small' } as const) : {};
  const act = (kind: 'stop' | 'retry', done: string) =>
    action.mutateAsync({ action: kind, id }).then(
      () => feedback.success(done, 2),
      () => undefined, // the http client said why
    );
  return (
    <>
      {(status === 'RUNNING' || status === 'WAITING') && (
        <Popconfirm
          title={t('workflow.instance.stopConfirm')}
          okText={t('workflow.instance.stop')}
          cancelText={t('workflow.cancel')}
          onConfirm={() => act('stop', t('workflow.instance.stopped'))}
        >
          <Button {...look} danger data-testid="wf-instance-stop">
            {t('workflow.instance.stop')}
          </Button>
        </Popconfirm>
      )}
      {status === 'FAILED' && (
        <Popconfirm
          title={t('workflow.instance.retryConfirm')}
          okText={t('workflow.instance.retry')}
          cancelText={t('workflow.cancel')}
          onConfirm={() => act('retry', t('workflow.instance.retried'))}
        >
          <Button {...look} data-testid="wf-instance-retry">
            {t('workflow.instance.retry')}
          </Button>
        </Popconfirm>
      )}
    </>
  );
}
