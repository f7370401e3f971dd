import { useMemo } from 'react';
import type { AppRoute } from './app-route';
import { routeTables } from './route-tables';
import { useSessionStore } from './session-store';

/** The signed-in user's routes: the constant ones, then those route generation granted. */
export function useConsoleRoutes(): AppRoute[] {
  const generated = useSessionStore((state) => state.routes);
  return useMemo(() => [...routeTables().constantRoutes, ...generated], [generated]);
}
