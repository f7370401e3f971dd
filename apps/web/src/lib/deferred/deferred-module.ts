import { useSyncExternalStore } from 'react';
import { onFirstInteraction } from './first-interaction';

/** A module a page can paint without, downloaded once it is wanted. */
export interface DeferredModule<T> {
  /** Downloads it, once; a failed download is tried again on the next call. */
  load(): Promise<T>;
  /** Starts the download without waiting; a failure leaves the stand-ins in place. */
  preload(): void;
  /** Downloads it on the visitor's first interaction with the page. */
  loadOnInteraction(): void;
  /** Whether it has arrived; re-renders when it does. */
  useLoaded(): boolean;
  /** What it resolved to once arrived, else undefined; re-renders when it arrives. */
  useValue(): T | undefined;
}

export function deferredModule<T>(download: () => Promise<T>): DeferredModule<T> {
  let loaded = false;
  let value: T | undefined;
  let loading: Promise<T> | undefined;
  const listeners = new Set<() => void>();
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  const module: DeferredModule<T> = {
    load() {
      loading ??= download().then(
        (result) => {
          value = result;
          loaded = true;
          for (const listener of listeners) listener();
          return result;
        },
        (error: unknown) => {
          loading = undefined;
          throw error;
        },
      );
      return loading;
    },
    preload() {
      void module.load().catch(() => undefined);
    },
    loadOnInteraction() {
      if (!loaded) onFirstInteraction(module.preload);
    },
    useLoaded() {
      return useSyncExternalStore(subscribe, () => loaded);
    },
    useValue() {
      return useSyncExternalStore(subscribe, () => value);
    },
  };
  return module;
}
