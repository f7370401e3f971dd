import type { RouteObject } from 'react-router';
import { deferredModule } from '../lib/deferred/deferred-module';

/**
 * The signed-in routes (every console screen's route, the session guard, route generation): the
 * sign-in page never needs them; a token does.
 */
const closedRoutesModule = deferredModule(() => import('./closed-routes'));

/** Downloads the signed-in routes, once; a failed download is tried again on the next call. */
export const loadClosedRoutes = closedRoutesModule.load;

/**
 * Starts downloading the console and the screens a path shows, so they arrive alongside the
 * session instead of one after another once it is loaded.
 */
export function preloadScreens(pathname: string): void {
  void loadClosedRoutes()
    .then((module) => module.preloadScreens(pathname))
    .catch(() => undefined);
}

/** The signed-in routes once downloaded, else undefined; re-renders when they arrive. */
export function useClosedRoutes(): RouteObject[] | undefined {
  return closedRoutesModule.useValue()?.closedRoutes;
}
