import {
  AREA_SCREEN_ICONS,
  AREA_SCREENS,
  AREAS,
  areaSegmentCode,
  areaSegmentPath,
  CROSS_AREA_SCREENS,
  type AreaDef,
  type AreaScreen,
} from '@shuili/contract';
import { createElement } from 'react';
import type { AppRoute, ScreenComponent } from '../core/app-route';
import type { LazyPage } from '../core/lazy-page';
import type { AreaScreenProps } from '../features/monitor/screens/area-screen-props';
import { AREA_PAGES } from './area-pages';
import { monitorScreen } from './area-screen-page';

/** One implementation per standard screen, each its own chunk, shared by every area. */
const SCREEN_PAGES: Record<AreaScreen, LazyPage<AreaScreenProps>> = {
  deviceList: monitorScreen(
    () => import('../features/monitor/screens/AreaDeviceListPage'),
    'AreaDeviceListPage',
  ),
  monitor: monitorScreen(
    () => import('../features/monitor/screens/AreaMonitorPage'),
    'AreaMonitorPage',
  ),
  configuration: monitorScreen(
    () => import('../features/monitor/screens/AreaConfigurationPage'),
    'AreaConfigurationPage',
  ),
  dataReport: monitorScreen(
    () => import('../features/monitor/screens/AreaReportPage'),
    'AreaReportPage',
  ),
  warnings: monitorScreen(
    () => import('../features/monitor/screens/AreaWarningsPage'),
    'AreaWarningsPage',
  ),
  operations: monitorScreen(
    () => import('../features/monitor/screens/AreaOperationsPage'),
    'AreaOperationsPage',
  ),
  regional: monitorScreen(
    () => import('../features/monitor/screens/AreaRegionalPage'),
    'AreaRegionalPage',
  ),
};

/**
 * A route's screen: the standard screen of its kind for its area (undefined: every area),
 * shown once the user's zones are loaded (spec §2, ZonesGate).
 */
export function areaScreen(area: AreaDef | undefined, kind: AreaScreen): ScreenComponent {
  const Page = SCREEN_PAGES[kind];
  function AreaScreenRoute() {
    return createElement(Page, { area });
  }
  AreaScreenRoute.displayName = `${kind}:${area?.code ?? 'all'}`;
  return Object.assign(AreaScreenRoute, { preload: Page.preload });
}

/** A route name from a path segment: irrigationDevice → IrrigationDevice. */
const routeName = (segment: string) => segment.charAt(0).toUpperCase() + segment.slice(1);

/** A route per standard screen and own page of an area, in the declaration's order. */
function areaItemRoutes(area: AreaDef): AppRoute[] {
  const screens = (Object.entries(area.screens) as Array<[AreaScreen, string]>).map(
    ([kind, segment]): AppRoute => ({
      path: segment,
      name: routeName(areaSegmentCode(area, segment)),
      page: areaScreen(area, kind),
      meta: { title: `route.${areaSegmentCode(area, segment)}`, icon: AREA_SCREEN_ICONS[kind] },
    }),
  );
  const pages = (area.pages ?? []).flatMap((def): AppRoute[] => {
    const Page = AREA_PAGES[def.page];
    if (!Page) return [];
    const AreaPageRoute = Object.assign(() => createElement(Page, { area }), {
      displayName: `${def.page}:${area.code}`,
      preload: Page.preload,
    });
    // A hidden page (reached from another) highlights the area's first listed page.
    const listed = area.pages?.find((other) => !other.hidden);
    return [
      {
        path: def.segment,
        name: routeName(areaSegmentCode(area, def.segment)),
        page: AreaPageRoute,
        ...(def.hidden ? { hidden: true } : {}),
        meta: {
          title: `route.${areaSegmentCode(area, def.segment)}`,
          icon: def.icon,
          ...(def.hidden && listed ? { activeMenu: areaSegmentPath(area, listed.segment) } : {}),
        },
      },
    ];
  });
  return [...screens, ...pages];
}

/**
 * The monitoring areas' routes, from their declarations (contract areas/): a group per area at
 * its spec path with its screens and pages in the declaration's order (top-level routes for an
 * area without a group), then the cross-area screens at their top-level paths. Titles are the
 * route.* keys the server's menus name.
 */
export function areaRoutes(): AppRoute[] {
  const areas: AppRoute[] = AREAS.flatMap((area): AppRoute[] => {
    const items = areaItemRoutes(area);
    if (area.group === undefined)
      return items.map((item) => ({ ...item, path: areaSegmentPath(area, item.path) }));
    return [
      {
        path: area.group,
        alwaysShow: true,
        meta: { title: `route.${area.code}`, icon: area.icon },
        children: items,
      },
    ];
  });
  const crossArea: AppRoute[] = AREA_SCREENS.flatMap((kind) => {
    const path = CROSS_AREA_SCREENS[kind];
    if (!path) return [];
    const code = path.slice(1);
    return [
      {
        path,
        name: routeName(code),
        page: areaScreen(undefined, kind),
        meta: { title: `route.${code}`, icon: AREA_SCREEN_ICONS[kind] },
      },
    ];
  });
  return [...areas, ...crossArea];
}
