import { lazyPage } from '../core/lazy-page';

/** The signed-in console (layout, server-state cache): its own chunk, never loaded by /login. */
export const ConsoleRoutePage = lazyPage(() => import('./ConsoleRoute'), 'ConsoleRoute');
