import type { AppRoute } from './app-route';

/**
 * The console's route tables, as the floors below the router see them.
 *
 * The tables are declared at the top (app/), where every screen is imported; the session, the
 * layout and the screens must not import upwards, so they reach the tables through this registry,
 * which the router fills at start-up with a loader. The tables come with the signed-in code, never
 * with the sign-in page.
 */
export interface RouteTables {
  /** Routes every signed-in user has (workbench, profile, notifications, refresh). */
  readonly constantRoutes: readonly AppRoute[];
  /** Routes route generation grants by role and menu (spec §4). */
  readonly asyncRoutes: readonly AppRoute[];
  /** Starts downloading the console and the screens a path shows. */
  preloadScreens(pathname: string): void;
}

// The loader downloads once and tries again after a failure (the router's deferred module).
let load: () => Promise<RouteTables>;
let loaded: RouteTables | undefined;

/** The router's part: how the tables are loaded (called once, at start-up). */
export function provideRouteTables(loader: () => Promise<RouteTables>): void {
  load = loader;
}

/** The tables, downloaded on first use. */
export async function loadRouteTables(): Promise<RouteTables> {
  return (loaded ??= await load());
}

/**
 * The tables, for code that runs only inside a session (the session is not ready before they are
 * loaded, see session.ts): the layout's tabs, menus and role switch.
 */
export function routeTables(): RouteTables {
  if (!loaded) throw new Error('route tables before the session');
  return loaded;
}

/** Starts downloading the console and the screens a path shows (the sign-in page, on success). */
export function preloadScreens(pathname: string): void {
  loadRouteTables()
    .then((tables) => tables.preloadScreens(pathname))
    .catch(() => undefined);
}
