import { sysUserEntity } from '@shuili/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Permitted } from '../../core/Permitted';
import { resourceKey } from '../../resource/use-resource';
import type { RoleRef } from './authority-api';

// The drawers' trees and tables load when a role is first authorised, not with the roles list.
const RoleAuthorizeDrawer = lazy(() =>
  import('./RoleAuthorizeDrawer').then((module) => ({ default: module.RoleAuthorizeDrawer })),
);
const RoleUsersDrawer = lazy(() =>
  import('./RoleUsersDrawer').then((module) => ({ default: module.RoleUsersDrawer })),
);

/** A row of the roles list (sysRoleEntity's query answer). */
export interface RoleRow {
  id: string;
  [field: string]: unknown;
}

function roleRefOf(row: RoleRow): RoleRef {
  return {
    id: row.id,
    roleCode: String(row.roleCode ?? ''),
    roleName: typeof row.roleName === 'string' ? row.roleName : undefined,
  };
}

export interface RoleRowActionsProps {
  row: RoleRow;
  /** After the role's holders changed (a users list may refresh). */
  onUsersChanged?: () => void;
}

/** The roles list's row actions: authorise (menus, buttons, URLs, data) and assign users. */
export function RoleRowActions({ row, onUsersChanged }: RoleRowActionsProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<'authorize' | 'users' | undefined>();
  // Mounted from the first opening on, so closing can animate.
  const [wanted, setWanted] = useState<Set<'authorize' | 'users'>>(() => new Set());
  const role = roleRefOf(row);
  const show = (which: 'authorize' | 'users') => {
    setWanted((current) => new Set(current).add(which));
    setOpen(which);
  };
  const close = () => setOpen(undefined);
  const usersChanged = () => {
    // The users list shows each user's roles.
    void queryClient.invalidateQueries({ queryKey: resourceKey(sysUserEntity) });
    onUsersChanged?.();
  };

  return (
    <>
      <Permitted code="sysrole:authorize">
        <Button
          type="link"
          size="small"
          onClick={() => show('authorize')}
          data-testid="row-role-authorize"
        >
          {t('authority.authorize')}
        </Button>
      </Permitted>
      <Permitted code="sysrole:users">
        <Button type="link" size="small" onClick={() => show('users')} data-testid="row-role-users">
          {t('authority.users.button')}
        </Button>
      </Permitted>
      <Suspense fallback={null}>
        {wanted.has('authorize') && (
          <RoleAuthorizeDrawer role={role} open={open === 'authorize'} onClose={close} />
        )}
        {wanted.has('users') && (
          <RoleUsersDrawer
            role={role}
            open={open === 'users'}
            onClose={close}
            onSaved={usersChanged}
          />
        )}
      </Suspense>
    </>
  );
}

/** ResourcePage's `rowActions` for the roles list. */
export function roleRowActions(row: RoleRow): ReactNode {
  return <RoleRowActions row={row} />;
}
