import { TOAST_MS } from '@shuili/contract';
import { useMutation } from '@tanstack/react-query';
import { Button, Popconfirm } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSessionStore } from '../../core/session-store';
import { feedback } from '../../lib/feedback';
import { adminExtraApi } from './admin-extra-api';

export interface SignOutUserButtonProps {
  username: string;
  /** After the user's sessions were ended. */
  onDone?: () => void;
}

/** Ends every session of a user (removePrincipal), once the admin has confirmed. */
export function SignOutUserButton({ username, onDone }: SignOutUserButtonProps) {
  const { t } = useTranslation();
  const self = useSessionStore((state) => state.user?.username === username);
  const signOut = useMutation({
    mutationFn: () => adminExtraApi.removePrincipal(username),
    onSuccess: ({ revoked }) => {
      feedback.success(t('adminExtra.signOut.done', { count: revoked }), TOAST_MS.success / 1000);
      onDone?.();
    },
  });

  return (
    <Popconfirm
      title={t('adminExtra.signOut.title')}
      description={
        self
          ? t('adminExtra.signOut.confirmSelf', { username })
          : t('adminExtra.signOut.confirm', { username })
      }
      okText={t('adminExtra.signOut.ok')}
      cancelText={t('adminExtra.cancel')}
      okButtonProps={{ danger: true, 'data-testid': 'sign-out-confirm' }}
      onConfirm={() => signOut.mutateAsync().catch(() => undefined)}
    >
      <Button
        type="link"
        size="small"
        danger
        loading={signOut.isPending}
        data-testid="row-sign-out"
      >
        {t('adminExtra.signOut.button')}
      </Button>
    </Popconfirm>
  );
}
