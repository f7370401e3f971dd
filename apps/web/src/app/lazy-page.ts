import { lazy, type ComponentType } from 'react';
import { progress } from '../lib/progress';

/**
 * A route's screen as its own chunk (React.lazy), with the progress bar running while it loads.
 * The router keeps the previous screen up meanwhile (navigations are transitions).
 */
export function lazyPage<Name extends string>(
  load: () => Promise<Record<Name, ComponentType>>,
  name: Name,
) {
  return lazy(() => progress.track(load()).then((module) => ({ default: module[name] })));
}
