import {
  AREA_SCREEN_ICONS,
  AREA_SCREENS,
  AREAS,
  CROSS_AREA_SCREENS,
  type AreaDef,
  type AreaScreen,
} from '@shuili/contract';
import { createElement, type ComponentType } from 'react';
import type { AppRoute, ScreenComponent } from '../core/app-route';
import { lazyPage, type LazyPage } from '../core/lazy-page';
import type { AreaScreenProps } from '../features/monitor/screens/area-screen-props';

// The standard screens' strings: the entity kit's and IoT's (values, tags), the zone gate's
// (admin) and the monitor's own. The zone gate comes with the screen's chunk, not with the route
// table: its zone store's calls would bring zod into the shell.
const monitorScreen = <Name extends string>(
  load: () => Promise<Record<Name, ComponentType<AreaScreenProps>>>,
  name: Name,
): LazyPage<AreaScreenProps> =>
  lazyPage<Name, AreaScreenProps>(
    () =>
      Promise.all([load(), import('../features/admin-extra/ZonesGate')]).then(
        ([module, { ZonesGate }]) => {
          const Screen = module[name];
          const Gated = (props: AreaScreenProps) =>
            createElement(ZonesGate, null, createElement(Screen, props));
          return { [name]: Gated } as Record<Name, ComponentType<AreaScreenProps>>;
        },
      ),
    name,
    ['resource', 'admin', 'iot', 'monitor'],
  );

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

/**
 * The monitoring areas' routes, from their declarations (contract areas/): a group per area at
 * its spec path with its screens in the declaration's order, then the cross-area screens at
 * their top-level paths. Titles are the route.* keys the server's menus name.
 */
export function areaRoutes(): AppRoute[] {
  const groups: AppRoute[] = AREAS.map((area) => ({
    path: area.group,
    alwaysShow: true,
    meta: { title: `route.${area.code}`, icon: area.icon },
    children: (Object.entries(area.screens) as Array<[AreaScreen, string]>).map(
      ([kind, segment]) => ({
        path: segment,
        name: routeName(segment),
        page: areaScreen(area, kind),
        meta: { title: `route.${segment}`, icon: AREA_SCREEN_ICONS[kind] },
      }),
    ),
  }));
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
  return [...groups, ...crossArea];
}
