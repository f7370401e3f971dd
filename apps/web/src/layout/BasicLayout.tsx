import { LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Layout, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router';
import { HOME_PATH } from '../app/open-paths';
import { logout } from '../app/session';
import { useSessionStore } from '../app/session-store';
import { getTenantName } from '../lib/auth-storage';
import styles from './BasicLayout.module.css';
import { LanguageSelect } from './LanguageSelect';

/**
 * The console shell for now: product title, tenant, user, language and sign-out. The sidebar,
 * tags view and settings drawer of spec §2 replace this in the layout issue.
 */
export function BasicLayout() {
  const { t } = useTranslation();
  const user = useSessionStore((state) => state.user);
  const [leaving, setLeaving] = useState(false);
  const tenantName = user?.tenantName ?? getTenantName();

  const onLogout = async () => {
    setLeaving(true);
    // Once the session is reset, the route guard takes the user to /login.
    await logout();
  };

  return (
    <Layout className={styles.shell}>
      <Layout.Header className={styles.header}>
        <Link to={HOME_PATH} className={styles.brand}>
          {t('smart IoT management system')}
        </Link>
        <Space size="middle" className={styles.tools}>
          {tenantName && (
            <Typography.Text className={styles.tenant} data-testid="navbar-tenant">
              {t('navbar.tenant', { name: tenantName })}
            </Typography.Text>
          )}
          <Typography.Text data-testid="navbar-user">
            <UserOutlined /> {user?.nickname || user?.username}
          </Typography.Text>
          <LanguageSelect />
          <Button
            type="text"
            icon={<LogoutOutlined />}
            loading={leaving}
            onClick={() => void onLogout()}
            data-testid="logout"
          >
            {t('navbar.logout')}
          </Button>
        </Space>
      </Layout.Header>
      <Layout.Content className={styles.content}>
        <Outlet />
      </Layout.Content>
    </Layout>
  );
}
