import { lazyPage } from '../core/lazy-page';

/**
 * The signed-in console (layout, server-state cache): its own chunk, never loaded by /login, with
 * the monitoring areas' route titles that its menus, tabs and page titles show.
 */
export const ConsoleRoutePage = lazyPage(() => import('./ConsoleRoute'), 'ConsoleRoute', [
  'routes',
]);
