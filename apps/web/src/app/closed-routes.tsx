import type { ParseKeys } from 'i18next';
import { matchRoutes, Navigate, type RouteObject } from 'react-router';
import type { AppRoute } from '../core/app-route';
import type { RouteTables } from '../core/route-tables';
import { asyncRoutes } from './async-routes';
import { constantRoutes } from './constant-routes';
import { ConsoleRoutePage } from './console-route-page';
import { routeTrails } from '../core/generate-routes';
import { HOME_PATH } from '../core/open-paths';
import { RequireSession } from './RequireSession';
import type { RouteHandle } from './route-table';

/**
 * The router's view of the navigation items: one flat route per screen (with its trail for the
 * breadcrumb, tags and page title) or redirect. Which of them a user may open is the guard's
 * business (route generation), not the router's.
 */
export function toRouteObjects(routes: readonly AppRoute[]): RouteObject[] {
  return routeTrails(routes).map(({ path, trail }): RouteObject => {
    const route = trail.at(-1)!.route;
    const Page = route.page;
    if (!Page) return { path, element: <Navigate to={route.redirect!} replace /> };
    const handle: RouteHandle = {
      title: route.meta?.title as ParseKeys | undefined,
      page: Page,
      trail,
    };
    return { path, handle, element: <Page /> };
  });
}

/**
 * The signed-in part of the route table: every console screen behind the session guard, the
 * constant routes and all async ones (the guard keeps users out of those route generation did not
 * grant them). Its own chunk: the sign-in page never downloads it (route-table.tsx).
 */
export const closedRoutes: RouteObject[] = [
  {
    element: <RequireSession onPreload={preloadScreens} />,
    children: [
      { index: true, element: <Navigate to={HOME_PATH} replace /> },
      ...toRouteObjects([...constantRoutes, ...asyncRoutes]),
    ],
  },
];

/** Starts downloading the console and the screens a path shows (see core/route-tables.ts). */
export function preloadScreens(pathname: string): void {
  void ConsoleRoutePage.preload().catch(() => undefined);
  for (const match of matchRoutes(closedRoutes, pathname === '/' ? HOME_PATH : pathname) ?? []) {
    void (match.route.handle as RouteHandle | undefined)?.page?.preload?.().catch(() => undefined);
  }
}

/** What the floors below the router see of it (core/route-tables.ts). */
export const routeTables: RouteTables = { constantRoutes, asyncRoutes, preloadScreens };
