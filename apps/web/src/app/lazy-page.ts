import { createElement, lazy, type ComponentType } from 'react';
import { progress } from '../lib/progress';

/** A lazily loaded screen that can also be fetched ahead of being shown. */
export type LazyPage = ComponentType & { preload(): Promise<unknown> };

/**
 * A route's screen as its own chunk, with the progress bar running while it loads. `preload`
 * starts the download early (while the session loads), and a screen whose chunk has arrived
 * renders at once instead of suspending: React holds a revealed Suspense boundary back for up to
 * 300 ms, which would stand between pressing "Sign in" and the console.
 */
export function lazyPage<Name extends string>(
  load: () => Promise<Record<Name, ComponentType>>,
  name: Name,
): LazyPage {
  let loaded: ComponentType | undefined;
  let loading: Promise<Record<Name, ComponentType>> | undefined;
  const loadOnce = () =>
    (loading ??= load().then(
      (module) => {
        loaded = module[name];
        return module;
      },
      (error: unknown) => {
        // A failed download may be retried by the next navigation.
        loading = undefined;
        throw error;
      },
    ));
  const Suspending: ComponentType = lazy(() =>
    progress
      .track(loadOnce())
      .then((module): { default: ComponentType } => ({ default: module[name] })),
  );
  function Page() {
    return createElement(loaded ?? Suspending);
  }
  Page.displayName = name;
  return Object.assign(Page, { preload: loadOnce });
}
