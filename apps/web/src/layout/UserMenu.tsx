import { DownOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Dropdown, Space, type MenuProps } from 'antd';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { logout } from '../core/end-session';
import { HOME_PATH } from '../core/open-paths';
import { useSessionStore } from '../core/session-store';
import styles from './Navbar.module.css';

/** Spec §2 user dropdown's profile screen. */
export const PROFILE_PATH = '/profile/index';

// The dialog's form code loads when the user first asks to change the password.
const ChangePasswordDialog = lazy(() =>
  import('../features/profile/ChangePasswordDialog').then((module) => ({
    default: module.ChangePasswordDialog,
  })),
);

const ROLE_KEY = 'role:';

/**
 * Spec §2 user dropdown: workbench, profile, change password, logout; and, for a user holding
 * several roles, the roles to act as (spec §4 role switch), the active one selected.
 */
export function UserMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const user = useSessionStore((state) => state.user);
  const activeRole = useSessionStore((state) => state.activeRole);
  const [changingPassword, setChangingPassword] = useState(false);
  const [dialogWanted, setDialogWanted] = useState(false);
  // A switched role's session, waiting for the workbench to open: navigating there makes a new
  // location even from the workbench itself.
  const switched = useRef<() => void>(undefined);

  useEffect(() => {
    const apply = switched.current;
    if (apply && location.pathname === HOME_PATH) {
      switched.current = undefined;
      apply();
    }
  }, [location]);

  const roles = user && user.roles.length > 1 ? user.roles : [];
  const items: MenuProps['items'] = [
    ...(roles.length
      ? [
          {
            type: 'group' as const,
            label: t('home.activeRole'),
            children: roles.map((role) => ({
              key: ROLE_KEY + role,
              label: (
                <span data-testid="menu-role" data-role={role}>
                  {user!.roleNames[user!.roles.indexOf(role)] || role}
                </span>
              ),
            })),
          },
          { type: 'divider' as const },
        ]
      : []),
    { key: 'workbench', label: <span data-testid="menu-workbench">{t('route.workbench')}</span> },
    { key: 'profile', label: <span data-testid="menu-profile">{t('route.profile')}</span> },
    {
      key: 'password',
      label: <span data-testid="menu-change-password">{t('navbar.changePassword')}</span>,
    },
    { type: 'divider' },
    { key: 'logout', label: <span data-testid="logout">{t('navbar.logout')}</span> },
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key.startsWith(ROLE_KEY)) {
      void import('./role-switch')
        .then(({ switchRole }) => switchRole(key.slice(ROLE_KEY.length)))
        .then((apply) => {
          if (!apply) return;
          switched.current = apply;
          void navigate(HOME_PATH);
        });
    } else if (key === 'workbench') void navigate(HOME_PATH);
    else if (key === 'profile') void navigate(PROFILE_PATH);
    else if (key === 'password') {
      setDialogWanted(true);
      setChangingPassword(true);
    } else if (key === 'logout') {
      // Once the session is reset, the route guard takes the user to /login.
      void logout();
    }
  };

  const name = user?.nickname || user?.username;
  return (
    <>
      <Dropdown
        trigger={['click']}
        menu={{ items, onClick, selectedKeys: activeRole ? [ROLE_KEY + activeRole] : [] }}
        placement="bottomRight"
      >
        <button type="button" className={styles.user} data-testid="navbar-user">
          <Space size={6}>
            <Avatar size="small" src={user?.avatar || undefined} icon={<UserOutlined />} />
            <span className={styles.userName}>{name}</span>
            <DownOutlined className={styles.caret} />
          </Space>
        </button>
      </Dropdown>
      {dialogWanted && (
        <Suspense fallback={null}>
          <ChangePasswordDialog
            open={changingPassword}
            onClose={() => setChangingPassword(false)}
          />
        </Suspense>
      )}
    </>
  );
}
