import type { RouteObject } from 'react-router';
import type { RouteTables } from '../core/route-tables';
import { deferredModule } from '../lib/deferred/deferred-module';

/**
 * The signed-in routes (every console screen's route, the session guard, route generation): the
 * sign-in page never needs them; a token does.
 */
const closedRoutesModule = deferredModule(() => import('./closed-routes'));

/** Downloads the signed-in routes, once; a failed download is tried again on the next call. */
export const loadClosedRoutes = closedRoutesModule.load;

/** The route tables from the signed-in routes, for the floors below (core/route-tables.ts). */
export function loadConsoleRouteTables(): Promise<RouteTables> {
  return loadClosedRoutes().then((module) => module.routeTables);
}

/** The signed-in routes once downloaded, else undefined; re-renders when they arrive. */
export function useClosedRoutes(): RouteObject[] | undefined {
  return closedRoutesModule.useValue()?.closedRoutes;
}
