import { MenuFoldOutlined, MenuUnfoldOutlined, SettingOutlined } from '@ant-design/icons';
import { Button, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AppRoute } from '../core/app-route';
import type { RouteLink } from '../core/generate-routes';
import { useSessionStore } from '../core/session-store';
import { NotificationBell } from '../features/notification/NotificationBell';
import { getTenantName } from '../lib/auth-storage';
import { LiveReconnectButton } from '../core/live/LiveReconnectButton';
import { toggleSidebar, useAppStore } from './app-state';
import { Breadcrumbs } from './Breadcrumbs';
import { ErrorLogButton } from './ErrorLogButton';
import { FullscreenButton } from './FullscreenButton';
import { HeaderSearch } from './HeaderSearch';
import { LanguageSelect } from './LanguageSelect';
import { MenuSwitch } from './MenuSwitch';
import styles from './Navbar.module.css';
import { useSettingsStore } from './settings-store';
import { SizeSelect } from './SizeSelect';
import { UserMenu } from './UserMenu';

export interface NavbarProps {
  routes: readonly AppRoute[];
  trail: readonly RouteLink[];
  onOpenSettings: () => void;
}

/**
 * Spec §2 navbar: hamburger and breadcrumb; search, error log, notifications, fullscreen, size,
 * language, settings, tenant name and the user dropdown.
 */
export function Navbar({ routes, trail, onOpenSettings }: NavbarProps) {
  const { t } = useTranslation();
  const opened = useAppStore((state) => state.sidebar.opened);
  const mobile = useAppStore((state) => state.device === 'mobile');
  const showSettings = useSettingsStore((state) => state.showSettings);
  const tenantName = useSessionStore((state) => state.user?.tenantName) ?? getTenantName();
  const toggleLabel = opened ? t('navbar.collapseSidebar') : t('navbar.expandSidebar');

  return (
    <div className={styles.navbar}>
      <Button
        type="text"
        className={styles.hamburger}
        aria-label={toggleLabel}
        aria-expanded={opened}
        icon={opened ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
        onClick={toggleSidebar}
        data-testid="hamburger"
      />
      {!mobile && (
        <div className={styles.breadcrumb}>
          <Breadcrumbs trail={trail} />
        </div>
      )}
      <div className={styles.right}>
        {!mobile && <MenuSwitch />}
        <HeaderSearch routes={routes} />
        <ErrorLogButton />
        <LiveReconnectButton />
        <NotificationBell />
        {!mobile && <FullscreenButton />}
        <SizeSelect />
        <LanguageSelect />
        {showSettings && (
          <Tooltip title={t('settings.title')}>
            <Button
              type="text"
              aria-label={t('settings.title')}
              icon={<SettingOutlined />}
              onClick={onOpenSettings}
              data-testid="settings-button"
            />
          </Tooltip>
        )}
        {tenantName && !mobile && (
          <Typography.Text className={styles.tenant} data-testid="navbar-tenant" ellipsis>
            {t('navbar.tenant', { name: tenantName })}
          </Typography.Text>
        )}
        <UserMenu />
      </div>
    </div>
  );
}
