import { ConfigProvider } from 'antd';
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import {
  UNSAFE_LocationContext as LocationContext,
  useLocation,
  useNavigationType,
  useOutlet,
} from 'react-router';
import { retryFailedPages } from '../core/lazy-page';
import { scrollMemory } from '../core/scroll-memory';
import styles from './BasicLayout.module.css';
import { useTagsViewStore } from './tags-view-store';
import { ViewErrorBoundary } from './ViewErrorBoundary';
import { ViewReloadContext } from './view-reload';

interface KeptView {
  path: string;
  element: ReactNode;
  /** Where the screen was when last shown; hidden screens keep reading it. */
  place: {
    location: ReturnType<typeof useLocation>;
    navigationType: ReturnType<typeof useNavigationType>;
  };
  /** Bumped to remount the screen. */
  generation: number;
}

/**
 * The console's outlet with the tags view's keep-alive (spec §2, §4): the current screen, plus
 * every cached screen the user left, mounted but hidden, so it comes back exactly as it was: state,
 * form input, fetched data and scroll. Closing or refreshing a tab drops it from the cache, which
 * unmounts it here.
 *
 * Hidden screens stay fully mounted (display: none) rather than inside React's <Activity>, which
 * would unmount their effects: their queries would then refetch on return, which the tags view
 * must not do. Each hidden screen keeps seeing its own location, not the current one.
 */
export function KeepAliveOutlet() {
  const outlet = useOutlet();
  const location = useLocation();
  const navigationType = useNavigationType();
  const cached = useTagsViewStore((state) => state.cachedViews);
  const [views, setViews] = useState<KeptView[]>([]);
  const path = location.pathname;

  const shown = views.find((view) => view.path === path);
  const dropped = views.some((view) => view.path !== path && !cached.includes(view.path));
  let list = views;
  if (shown?.place.location !== location || dropped) {
    list = views.filter((view) => view.path === path || cached.includes(view.path));
    const entry: KeptView = {
      path,
      element: outlet,
      place: { location, navigationType },
      generation: shown?.generation ?? 0,
    };
    list = shown ? list.map((view) => (view.path === path ? entry : view)) : [...list, entry];
    // Adjusting state while rendering: the kept screens follow the location and the cache.
    setViews(list);
  }

  const reload = useCallback(() => {
    retryFailedPages();
    setViews((current) =>
      current.map((view) =>
        view.path === path ? { ...view, generation: view.generation + 1 } : view,
      ),
    );
  }, [path]);

  // Remember where each kept screen is scrolled to, for when the user comes back to it.
  const keptPath = useRef<string | undefined>(undefined);
  useLayoutEffect(() => {
    keptPath.current = cached.includes(path) ? path : undefined;
  }, [cached, path]);
  useEffect(() => {
    const onScroll = () => {
      if (keptPath.current) scrollMemory.save(keptPath.current, window.scrollY);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  useEffect(() => scrollMemory.keepOnly(cached), [cached]);

  return (
    <ViewReloadContext.Provider value={reload}>
      {list.map((view) => (
        <KeptScreen key={view.path} view={view} shown={view.path === path} onReload={reload} />
      ))}
    </ViewReloadContext.Provider>
  );
}

function KeptScreen({
  view,
  shown,
  onReload,
}: {
  view: KeptView;
  shown: boolean;
  onReload: () => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  // The screen's pop-ups (dialogs, drop-downs) live inside it: a hidden screen's open dialog
  // must not stay over the screen the user went on to.
  const popupContainer = useCallback(() => box.current ?? document.body, []);
  return (
    <div ref={box} hidden={!shown} className={styles.view} data-view={view.path}>
      <ConfigProvider getPopupContainer={popupContainer}>
        <LocationContext.Provider value={view.place}>
          <ViewErrorBoundary key={view.generation} onReload={onReload}>
            {view.element}
          </ViewErrorBoundary>
        </LocationContext.Provider>
      </ConfigProvider>
    </div>
  );
}
