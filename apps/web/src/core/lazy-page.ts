import { createElement, lazy, type ComponentType } from 'react';
import { loadFeatureStrings, type FeatureArea } from '../i18n/i18n';
import { progress } from '../lib/progress';

// Screens whose download failed: React keeps a lazy component's failure (so the error reaches
// the view's error boundary once, instead of retrying in a loop); a retry swaps in fresh ones.
const failed = new Set<() => void>();

/** Lets screens whose code failed to download try again on their next mount (a view reload). */
export function retryFailedPages(): void {
  for (const reset of failed) reset();
  failed.clear();
}

/** A lazily loaded screen that can also be fetched ahead of being shown. */
export type LazyPage<Props extends object = object> = ComponentType<Props> & {
  preload(): Promise<unknown>;
};

/**
 * A route's screen as its own chunk, with the progress bar running while it loads. `preload`
 * starts the download early (while the session loads), and a screen whose chunk has arrived
 * renders at once instead of suspending: React holds a revealed Suspense boundary back for up to
 * 300 ms, which would stand between pressing "Sign in" and the console. `strings` names the
 * feature areas whose translations the screen needs: they download alongside its code, and the
 * screen counts as loaded only once both have arrived, so it never renders raw keys.
 */
export function lazyPage<Name extends string, Props extends object = object>(
  load: () => Promise<Record<Name, ComponentType<Props>>>,
  name: Name,
  strings: readonly FeatureArea[] = [],
): LazyPage<Props> {
  let loaded: ComponentType<Props> | undefined;
  let loading: Promise<Record<Name, ComponentType<Props>>> | undefined;
  const suspending = (): ComponentType<Props> =>
    lazy(() =>
      progress
        .track(loadOnce())
        .then((module): { default: ComponentType<Props> } => ({ default: module[name] })),
    );
  const loadOnce = () =>
    (loading ??= Promise.all([load(), loadFeatureStrings(strings)]).then(
      ([module]) => {
        loaded = module[name];
        return module;
      },
      (error: unknown) => {
        loading = undefined;
        failed.add(() => {
          Suspending = suspending();
        });
        throw error;
      },
    ));
  let Suspending = suspending();
  // A screen's props (an area screen's area) pass through to it.
  function Page(props: Props) {
    return createElement(loaded ?? Suspending, props);
  }
  Page.displayName = name;
  return Object.assign(Page, { preload: loadOnce });
}
