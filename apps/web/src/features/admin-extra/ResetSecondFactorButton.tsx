import { TOAST_MS } from '@shuili/contract';
import { useMutation } from '@tanstack/react-query';
import { Button, Popconfirm } from 'antd';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../lib/feedback';
import { adminExtraApi } from './admin-extra-api';

export interface ResetSecondFactorButtonProps {
  userId: string;
  /** The name the confirmation and the result show. */
  userName: string;
  /** After the reset (the user's sessions ended with it). */
  onDone?: () => void;
}

/**
 * Turns a user's two-step verification off, for a lost authenticator, once the admin has
 * confirmed; the server ends the user's sessions with it.
 */
export function ResetSecondFactorButton({
  userId,
  userName,
  onDone,
}: ResetSecondFactorButtonProps) {
  const { t } = useTranslation();
  const reset = useMutation({
    mutationFn: () => adminExtraApi.resetSecondFactor(userId),
    onSuccess: ({ wasOn, revoked }) => {
      const key = wasOn ? 'adminExtra.secondFactor.done' : 'adminExtra.secondFactor.wasOff';
      feedback.success(t(key, { name: userName, count: revoked }), TOAST_MS.success / 1000);
      onDone?.();
    },
  });

  return (
    <Popconfirm
      title={t('adminExtra.secondFactor.title')}
      description={t('adminExtra.secondFactor.confirm', { name: userName })}
      okText={t('adminExtra.secondFactor.ok')}
      cancelText={t('adminExtra.cancel')}
      okButtonProps={{ danger: true, 'data-testid': 'reset-second-factor-confirm' }}
      onConfirm={() => reset.mutateAsync().catch(() => undefined)}
    >
      <Button
        type="link"
        size="small"
        danger
        loading={reset.isPending}
        data-testid="row-reset-second-factor"
      >
        {t('adminExtra.secondFactor.button')}
      </Button>
    </Popconfirm>
  );
}
