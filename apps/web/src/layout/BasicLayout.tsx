import { SIDEBAR_WIDTH_PX } from '@shuili/contract';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useLocation } from 'react-router';
import { REDIRECT_PREFIX } from '../core/open-paths';
import { findTrail } from '../core/generate-routes';
import { useConsoleRoutes } from '../core/use-console-routes';
import { reportMissingKeys } from '../i18n/missing-keys';
import { closeSidebar, useAppStore } from './app-state';
import styles from './BasicLayout.module.css';
import { KeepAliveOutlet } from './KeepAliveOutlet';
import { Navbar } from './Navbar';
import { useSettingsStore } from './settings-store';
import { SIDEBAR_COLLAPSED_PX, Sidebar } from './Sidebar';
import { affixTags, tagsView, tagViewOf } from './tags-view-store';
import { TagsView } from './TagsView';
import { useDevice } from './use-device';

// Inside the console a text missing in the reader's language is a bug worth a console line.
reportMissingKeys();

// The drawer's colour picker loads when the settings are first opened.
const SettingsDrawer = lazy(() =>
  import('./SettingsDrawer').then((module) => ({ default: module.SettingsDrawer })),
);

/**
 * The console shell of spec §2: sidebar, navbar, tags view and settings drawer around the
 * kept-alive screens.
 */
export function BasicLayout() {
  const routes = useConsoleRoutes();
  const location = useLocation();
  const { pathname, search, hash } = location;
  const opened = useAppStore((state) => state.sidebar.opened);
  const withoutAnimation = useAppStore((state) => state.sidebar.withoutAnimation);
  const mobile = useAppStore((state) => state.device === 'mobile');
  const showTags = useSettingsStore((state) => state.tagsView);
  const fixedHeader = useSettingsStore((state) => state.fixedHeader);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [settingsWanted, setSettingsWanted] = useState(false);
  useDevice(pathname);

  const passing = pathname.startsWith(`${REDIRECT_PREFIX}/`);
  const current = useMemo(() => findTrail(routes, pathname), [routes, pathname]);
  const screen = current?.trail.at(-1)?.route;
  const activeKey = screen?.meta?.activeMenu ?? current?.path ?? pathname;

  useEffect(() => tagsView.addAffixed(affixTags(routes)), [routes]);

  useEffect(() => {
    if (!screen || passing) return;
    const fullPath = `${pathname}${search}${hash}`;
    tagsView.add(tagViewOf(screen, pathname, fullPath));
    // Spec §4 update: the tab goes back to where the user was in the screen (query included).
    tagsView.update({ path: pathname, fullPath });
  }, [screen, passing, pathname, search, hash]);

  const sidebarWidth = mobile ? 0 : opened ? SIDEBAR_WIDTH_PX : SIDEBAR_COLLAPSED_PX;

  return (
    <div className={styles.shell}>
      {mobile && opened && (
        <div className={styles.backdrop} onClick={() => closeSidebar(false)} aria-hidden />
      )}
      <Sidebar routes={routes} activeKey={activeKey} />
      <div
        className={`${styles.main} ${withoutAnimation ? styles.still : ''}`}
        style={{ marginLeft: sidebarWidth }}
      >
        <header
          className={fixedHeader ? `${styles.header} ${styles.fixed}` : styles.header}
          data-testid="header"
        >
          <Navbar
            routes={routes}
            trail={current?.trail ?? []}
            onOpenSettings={() => {
              setSettingsWanted(true);
              setSettingsOpen(true);
            }}
          />
          {showTags && <TagsView currentPath={pathname} />}
        </header>
        <main className={styles.content}>
          <KeepAliveOutlet />
        </main>
      </div>
      {settingsWanted && (
        <Suspense fallback={null}>
          <SettingsDrawer open={settingsOpen} onClose={() => setSettingsOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}
