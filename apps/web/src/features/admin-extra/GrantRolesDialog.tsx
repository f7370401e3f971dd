import { TOAST_MS } from '@shuili/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Checkbox, Modal, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../lib/feedback';
import { adminExtraApi, adminExtraKeys } from './admin-extra-api';

export interface GrantRolesDialogProps {
  open: boolean;
  userId: string;
  /** Who the roles are for, as the title names them. */
  userName: string;
  /** The roles the user holds now. */
  roleIds: readonly string[];
  onClose: () => void;
  /** After the roles were saved. */
  onSaved?: () => void;
}

/** Spec §6 "users can be granted roles": the user's roles as a checkbox list. */
export function GrantRolesDialog({
  open,
  userId,
  userName,
  roleIds,
  onClose,
  onSaved,
}: GrantRolesDialogProps) {
  const { t } = useTranslation();
  const roles = useQuery({
    queryKey: adminExtraKeys.roleOptions,
    queryFn: ({ signal }) => adminExtraApi.roleOptions(signal),
    enabled: open,
  });
  const [picked, setPicked] = useState<string[]>(() => [...roleIds]);
  const save = useMutation({
    mutationFn: () => adminExtraApi.authorizeRoles(userId, picked),
    onSuccess: () => {
      feedback.success(t('adminExtra.saved'), TOAST_MS.success / 1000);
      onSaved?.();
      onClose();
    },
  });
  const empty = picked.length === 0;

  return (
    <Modal
      open={open}
      title={t('adminExtra.grant.title', { user: userName })}
      okText={t('adminExtra.save')}
      cancelText={t('adminExtra.cancel')}
      onOk={() => save.mutate()}
      onCancel={onClose}
      okButtonProps={{ disabled: empty, 'data-testid': 'grant-roles-save' }}
      confirmLoading={save.isPending}
      destroyOnHidden
      data-testid="grant-roles-dialog"
    >
      {roles.isPending ? (
        <Skeleton active />
      ) : roles.isError ? (
        <Alert type="error" showIcon title={t('adminExtra.loadFailed')} />
      ) : (
        <>
          <Checkbox.Group<string>
            value={picked}
            onChange={(values) => setPicked(values)}
            options={roles.data.map((role) => ({
              value: role.id,
              label: `${role.roleName} (${role.roleCode})`,
            }))}
            style={{ display: 'flex', flexDirection: 'column', gap: 8 }}
            data-testid="grant-roles-options"
          />
          {empty && (
            <Typography.Paragraph type="danger" style={{ marginTop: 12, marginBottom: 0 }}>
              {t('adminExtra.grant.pickOne')}
            </Typography.Paragraph>
          )}
        </>
      )}
    </Modal>
  );
}
