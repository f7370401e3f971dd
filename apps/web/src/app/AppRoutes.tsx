import { Suspense, useEffect, useLayoutEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { matchRoutes, useLocation, useRoutes } from 'react-router';
import { progress } from '../lib/progress';
import { REDIRECT_PREFIX } from '../core/open-paths';
import { useRouteTable, type RouteHandle } from './route-table';
import { scrollMemory } from '../core/scroll-memory';

function isRouteHandle(handle: unknown): handle is RouteHandle {
  return (
    !!handle && typeof handle === 'object' && typeof (handle as RouteHandle).title === 'string'
  );
}

/** The routes, plus what every navigation does: page title, scroll to top, progress bar. */
export function AppRoutes() {
  const location = useLocation();
  const routeTable = useRouteTable();
  const element = useRoutes(routeTable);
  const { t, i18n } = useTranslation();

  const titleKey = useMemo(() => {
    const matches = matchRoutes(routeTable, location) ?? [];
    const titled = matches.map((match) => match.route.handle as unknown).filter(isRouteHandle);
    return titled.at(-1)?.title;
  }, [location, routeTable]);

  const passing = location.pathname.startsWith(`${REDIRECT_PREFIX}/`);
  useEffect(() => {
    // A refresh passes through /redirect for an instant: the title stays the screen's.
    if (passing) return;
    // Spec §2: the translated route title followed by the product title.
    const product = t('smart IoT management system');
    document.title = titleKey ? `${t(titleKey)} - ${product}` : t('irrigation system');
  }, [titleKey, t, i18n.language, passing]);

  // Before paint: a new screen opens at the top, a kept-alive one where it was left.
  useLayoutEffect(() => {
    window.scrollTo(0, scrollMemory.positionOf(location.pathname));
    progress.flash();
  }, [location.pathname]);

  // Only the very first screen can suspend visibly; later ones load while the old one stays up.
  return <Suspense fallback={null}>{element}</Suspense>;
}
