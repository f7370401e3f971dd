import { sysUserEntity } from '@shuili/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Permitted } from '../../core/Permitted';
import { resourceKey } from '../../resource/use-resource';
import { adminExtraKeys } from './admin-extra-api';
import { BindProjectsDialog } from './BindProjectsDialog';
import { GrantRolesDialog } from './GrantRolesDialog';
import { ResetPasswordDialog } from './ResetPasswordDialog';
import { ResetSecondFactorButton } from './ResetSecondFactorButton';
import { SignOutUserButton } from './SignOutUserButton';

/** A row of the users list (sysUserEntity's query answer). */
export interface UserRow {
  id: string;
  [field: string]: unknown;
}

export interface UserRowActionsProps {
  row: UserRow;
}

/**
 * The users list's row actions: grant roles, bind projects, reset the password or the two-step
 * verification, sign the user out.
 */
export function UserRowActions({ row }: UserRowActionsProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<'grant' | 'projects' | 'reset' | undefined>();
  const username = String(row.username ?? '');
  const name = typeof row.nickname === 'string' && row.nickname ? row.nickname : username;
  const roleIds = Array.isArray(row.roleIds) ? row.roleIds.map(String) : [];
  const close = () => setOpen(undefined);
  // The list shows each user's roles.
  const refreshUsers = () =>
    void queryClient.invalidateQueries({ queryKey: resourceKey(sysUserEntity) });

  return (
    <>
      <Permitted code="sysuser:grant">
        <Button type="link" size="small" onClick={() => setOpen('grant')} data-testid="row-grant">
          {t('adminExtra.grant.button')}
        </Button>
      </Permitted>
      <Permitted code="sysuser:bindProject">
        <Button
          type="link"
          size="small"
          onClick={() => setOpen('projects')}
          data-testid="row-projects"
        >
          {t('adminExtra.projects.button')}
        </Button>
      </Permitted>
      <Permitted code="sysuser:resetPassword">
        <Button type="link" size="small" onClick={() => setOpen('reset')} data-testid="row-reset">
          {t('adminExtra.reset.button')}
        </Button>
        {/* A lost authenticator is a credential reset too: the same button grant covers it. */}
        <ResetSecondFactorButton
          userId={row.id}
          userName={name}
          onDone={() => void queryClient.invalidateQueries({ queryKey: adminExtraKeys.online })}
        />
      </Permitted>
      {username && (
        <Permitted code="onlinesysuser:remove">
          <SignOutUserButton
            username={username}
            onDone={() => void queryClient.invalidateQueries({ queryKey: adminExtraKeys.online })}
          />
        </Permitted>
      )}
      {open === 'grant' && (
        <GrantRolesDialog
          open
          userId={row.id}
          userName={name}
          roleIds={roleIds}
          onClose={close}
          onSaved={refreshUsers}
        />
      )}
      {open === 'projects' && (
        <BindProjectsDialog open userId={row.id} userName={name} onClose={close} />
      )}
      {open === 'reset' && (
        <ResetPasswordDialog open userId={row.id} userName={name} onClose={close} />
      )}
    </>
  );
}

/** ResourcePage's `rowActions` for the users list. */
export function userRowActions(row: UserRow): ReactNode {
  return <UserRowActions row={row} />;
}
