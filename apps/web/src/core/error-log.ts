import { create } from 'zustand';

/** One uncaught error as the error-log dialog lists it (spec §8). */
export interface ErrorLogEntry {
  message: string;
  /** Where it was caught: 'window error', 'unhandled rejection', or a React component stack. */
  info: string;
  url: string;
  stack: string;
  time: number;
}

/** Spec §3 settings: the error log runs in production builds (development has the console). */
export const ERROR_LOG_ENABLED = import.meta.env.PROD;

/** Enough to see what happened; a page that throws in a loop must not eat the memory. */
export const ERROR_LOG_LIMIT = 50;

export const useErrorLogStore = create<{ logs: ErrorLogEntry[] }>(() => ({ logs: [] }));

/**
 * Words for something thrown that is not an Error: its own message, a form's failed fields
 * (antd rejects validation with `{ errorFields }`), else its JSON, never `[object Object]`.
 */
function describeThrown(error: unknown): string {
  if (error === undefined || error === null) return 'unknown error';
  if (typeof error !== 'object') return String(error);
  const thrown = error as { message?: unknown; errorFields?: Array<{ errors?: string[] }> };
  if (typeof thrown.message === 'string' && thrown.message) return thrown.message;
  if (Array.isArray(thrown.errorFields))
    return thrown.errorFields.flatMap((field) => field.errors ?? []).join('; ');
  try {
    return JSON.stringify(error).slice(0, 500);
  } catch {
    return Object.prototype.toString.call(error);
  }
}

/** Describes anything thrown: Errors keep their message and stack, the rest is described. */
export function toErrorLogEntry(error: unknown, info: string, url: string): ErrorLogEntry {
  const message = error instanceof Error ? error.message || error.name : describeThrown(error);
  const stack = error instanceof Error ? (error.stack ?? '') : '';
  return { message, info, url, stack, time: Date.now() };
}

/** Spec §4: error logs can be added and cleared. */
export function addErrorLog(entry: ErrorLogEntry): void {
  useErrorLogStore.setState((state) => ({
    logs: [...state.logs, entry].slice(-ERROR_LOG_LIMIT),
  }));
}

export function clearErrorLog(): void {
  useErrorLogStore.setState({ logs: [] });
}

/** Records what would otherwise only reach the browser console: uncaught errors and rejections. */
export function installErrorLog(): () => void {
  const onError = (event: ErrorEvent) => {
    addErrorLog(toErrorLogEntry(event.error ?? event.message, 'window error', location.href));
  };
  const onRejection = (event: PromiseRejectionEvent) => {
    addErrorLog(toErrorLogEntry(event.reason, 'unhandled rejection', location.href));
  };
  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onRejection);
  return () => {
    window.removeEventListener('error', onError);
    window.removeEventListener('unhandledrejection', onRejection);
  };
}
