import { TOAST_MS } from '@shuili/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Checkbox, Empty, Modal, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../lib/feedback';
import { adminExtraApi, adminExtraKeys } from './admin-extra-api';

export interface BindProjectsDialogProps {
  open: boolean;
  userId: string;
  /** Who the projects are for, as the title names them. */
  userName: string;
  onClose: () => void;
}

/**
 * Spec §7 bindUserProject: the tenant's projects as a checklist, the user's own checked. Saving
 * replaces the list; bound to projects, the user sees only their devices (none: every device).
 */
export function BindProjectsDialog({ open, userId, userName, onClose }: BindProjectsDialogProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const projects = useQuery({
    queryKey: adminExtraKeys.userProjects(userId),
    queryFn: ({ signal }) => adminExtraApi.userProjects(userId, signal),
    enabled: open,
  });
  const [edited, setEdited] = useState<string[] | undefined>();
  const picked = edited ?? projects.data?.projectIds ?? [];
  const save = useMutation({
    mutationFn: () => adminExtraApi.bindProjects(userId, picked),
    onSuccess: async () => {
      feedback.success(t('adminExtra.saved'), TOAST_MS.success / 1000);
      await queryClient.invalidateQueries({ queryKey: adminExtraKeys.userProjects(userId) });
      onClose();
    },
  });
  const all = projects.data?.projects ?? [];

  return (
    <Modal
      open={open}
      title={t('adminExtra.projects.title', { user: userName })}
      okText={t('adminExtra.save')}
      cancelText={t('adminExtra.cancel')}
      onOk={() => save.mutate()}
      onCancel={onClose}
      okButtonProps={{ disabled: !projects.isSuccess, 'data-testid': 'bind-projects-save' }}
      confirmLoading={save.isPending}
      destroyOnHidden
      data-testid="bind-projects-dialog"
    >
      {projects.isPending ? (
        <Skeleton active />
      ) : projects.isError ? (
        <Alert type="error" showIcon title={t('adminExtra.loadFailed')} />
      ) : all.length === 0 ? (
        <Empty description={t('adminExtra.projects.none')} />
      ) : (
        <>
          <Typography.Paragraph type="secondary">
            {t('adminExtra.projects.hint')}
          </Typography.Paragraph>
          <Typography.Paragraph type="secondary" data-testid="bind-projects-count">
            {t('adminExtra.projects.count', { count: picked.length, total: all.length })}
          </Typography.Paragraph>
          <Checkbox.Group<string>
            value={picked}
            onChange={(values) => setEdited(values)}
            options={all.map((project) => ({
              value: project.id,
              label: `${project.projectName} (${project.projectNo})`,
            }))}
            style={{ display: 'flex', flexDirection: 'column', gap: 8 }}
            data-testid="bind-projects-options"
          />
        </>
      )}
    </Modal>
  );
}
