import NProgress from 'nprogress';
import 'nprogress/nprogress.css';

// A thin bar, no spinner (spec §2).
NProgress.configure({ showSpinner: false, trickleSpeed: 200 });

// Several things can be loading at once (a route's code, the session); the bar ends with the last.
let running = 0;

/** The navigation progress bar. */
export const progress = {
  start(): void {
    running += 1;
    if (running === 1) NProgress.start();
  },
  done(): void {
    running = Math.max(0, running - 1);
    if (running === 0) NProgress.done();
  },
  /** A short run for navigations that had nothing to wait for. */
  flash(): void {
    if (running === 0) NProgress.start().done();
  },
  /** Wraps a promise in a run of the bar. */
  track<T>(promise: Promise<T>): Promise<T> {
    progress.start();
    return promise.finally(() => progress.done());
  },
};
