import { SIDEBAR_WIDTH_PX } from '@shuili/contract';
import { Menu, type MenuProps } from 'antd';
import { useMemo, useState } from 'react';
import type { ParseKeys } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { AppRoute } from '../core/app-route';
import { HOME_PATH } from '../core/open-paths';
import { closeSidebar, useAppStore } from './app-state';
import { buildMenu, menuAncestors, type MenuEntry } from './menu-model';
import { RouteIcon } from './RouteIcon';
import { useSettingsStore } from './settings-store';
import styles from './Sidebar.module.css';

/** Width of the closed sidebar on desktop: Ant Design's collapsed inline menu. */
export const SIDEBAR_COLLAPSED_PX = 80;

type MenuItem = Required<MenuProps>['items'][number];

export interface SidebarProps {
  routes: readonly AppRoute[];
  /** The menu key to highlight: the route's meta.activeMenu, else its path. */
  activeKey: string;
}

/** Spec §2 sidebar: the logo (linking to the workbench) and the menu of the user's routes. */
export function Sidebar({ routes, activeKey }: SidebarProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const opened = useAppStore((state) => state.sidebar.opened);
  const withoutAnimation = useAppStore((state) => state.sidebar.withoutAnimation);
  const mobile = useAppStore((state) => state.device === 'mobile');
  const showLogo = useSettingsStore((state) => state.sidebarLogo);
  const collapsed = !opened && !mobile;

  const entries = useMemo(() => buildMenu(routes), [routes]);
  const items = useMemo(() => {
    const toItem = (entry: MenuEntry): MenuItem => ({
      key: entry.key,
      icon: entry.icon ? <RouteIcon name={entry.icon} /> : undefined,
      label: t(entry.title as ParseKeys),
      children: entry.children?.map(toItem),
    });
    return entries.map(toItem);
  }, [entries, t]);

  // The active item's groups open as the user navigates; the user may open and close others.
  const ancestors = useMemo(() => menuAncestors(entries, activeKey), [entries, activeKey]);
  const [openKeys, setOpenKeys] = useState<string[]>(ancestors);
  const [openedFor, setOpenedFor] = useState(ancestors);
  if (openedFor !== ancestors) {
    setOpenedFor(ancestors);
    setOpenKeys((keys) => [...new Set([...keys, ...ancestors])]);
  }

  const onClick: MenuProps['onClick'] = ({ key }) => {
    // On mobile the menu is an overlay: choosing an item (even the open one) puts it away.
    if (mobile) closeSidebar(false);
    const entry = findEntry(entries, key);
    if (entry?.external) window.open(key, '_blank', 'noopener');
    else void navigate(key);
  };

  const width = mobile ? SIDEBAR_WIDTH_PX : opened ? SIDEBAR_WIDTH_PX : SIDEBAR_COLLAPSED_PX;
  const className = [
    styles.sidebar,
    mobile && !opened ? styles.hiddenAway : '',
    withoutAnimation ? styles.still : '',
  ].join(' ');

  return (
    <aside
      className={className}
      style={{ width }}
      data-testid="sidebar"
      data-state={opened ? 'open' : 'closed'}
    >
      {showLogo && (
        <Link
          to={HOME_PATH}
          className={styles.logo}
          aria-label={t('smart IoT management system')}
          data-testid="sidebar-logo"
        >
          <img src="/favicon.svg" alt="" className={styles.logoImage} />
          {!collapsed && <h1 className={styles.title}>{t('smart IoT management system')}</h1>}
        </Link>
      )}
      <Menu
        theme="dark"
        mode="inline"
        inlineCollapsed={collapsed}
        items={items}
        selectedKeys={[activeKey]}
        // A collapsed menu opens its groups as pop-ups on hover, not from these keys.
        {...(collapsed ? {} : { openKeys, onOpenChange: setOpenKeys })}
        onClick={onClick}
        className={styles.menu}
      />
    </aside>
  );
}

function findEntry(entries: readonly MenuEntry[], key: string): MenuEntry | undefined {
  for (const entry of entries) {
    if (entry.key === key) return entry;
    const below = entry.children && findEntry(entry.children, key);
    if (below) return below;
  }
  return undefined;
}
