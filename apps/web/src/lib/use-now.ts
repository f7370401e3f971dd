import { useSyncExternalStore } from 'react';

/**
 * One clock for every "12 s ago" on the screen: a single timer ticks each second while someone
 * reads it, and every reader re-renders on the same tick (ages never disagree on one page).
 */
let now = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const notify of listeners) notify();
    }, 1000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** Milliseconds since the epoch, updated every second. */
export function useNow(): number {
  return useSyncExternalStore(subscribe, () => now);
}
