import { DownOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Dropdown, Space, type MenuProps } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { HOME_PATH } from '../app/open-paths';
import { logout } from '../app/session';
import { useSessionStore } from '../app/session-store';
import styles from './Navbar.module.css';

/** Spec §2 user dropdown's profile screen. */
export const PROFILE_PATH = '/profile/index';

// The dialog's form code loads when the user first asks to change the password.
const ChangePasswordDialog = lazy(() =>
  import('../features/profile/ChangePasswordDialog').then((module) => ({
    default: module.ChangePasswordDialog,
  })),
);

/** Spec §2 user dropdown: workbench, profile, change password, logout. */
export function UserMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useSessionStore((state) => state.user);
  const [changingPassword, setChangingPassword] = useState(false);
  const [dialogWanted, setDialogWanted] = useState(false);

  const items: MenuProps['items'] = [
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
    if (key === 'workbench') void navigate(HOME_PATH);
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
      <Dropdown trigger={['click']} menu={{ items, onClick }} placement="bottomRight">
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
