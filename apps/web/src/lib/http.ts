import {
  CODE,
  ROLE_CODE_HEADER,
  SESSION_ENDED_CODES,
  TOAST_MS,
  type ApiEnvelope,
  type FieldError,
} from '@shuili/contract';
import { i18n } from '../i18n/i18n';
import { clearAuthStorage, getActiveRole, getToken } from './auth-storage';
import { feedback } from './feedback';
import { refreshAccessToken } from './oauth';
import { readJson } from './read-json';

type ParamValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Query parameters; null and undefined ones are left out. */
  params?: Record<string, ParamValue>;
  /** A JSON body. */
  data?: unknown;
  /** Raw bytes instead (uploads), sent as application/octet-stream. */
  raw?: Blob;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** The caller reports the failure itself: no toast, no re-login dialog. */
  silent?: boolean;
  /** A 400 whose field errors the calling form shows next to its fields: no toast then. */
  quietFieldErrors?: boolean;
}

/** A failed call, with the text already chosen by the spec §8 rules and translated. */
export class HttpError extends Error {
  readonly status: number;
  readonly code: number | undefined;
  readonly fieldErrors: FieldError[];

  constructor(
    message: string,
    status: number,
    code: number | undefined,
    fieldErrors: FieldError[],
  ) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.code = code;
    this.fieldErrors = fieldErrors;
  }
}

export interface ErrorBody {
  code?: unknown;
  message?: unknown;
  error?: unknown;
  error_description?: unknown;
  errors?: unknown;
}

function asErrorBody(body: unknown): ErrorBody {
  return body && typeof body === 'object' ? (body as ErrorBody) : {};
}

function isEnvelope(body: unknown): body is ApiEnvelope<unknown> & { errors?: FieldError[] } {
  return (
    !!body && typeof body === 'object' && typeof (body as { code?: unknown }).code === 'number'
  );
}

function fieldErrorsOf(body: ErrorBody): FieldError[] {
  return Array.isArray(body.errors) ? (body.errors as FieldError[]) : [];
}

function numberOrUndefined(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined;
}

function buildUrl(url: string, params: RequestOptions['params']): string {
  if (!params) return url;
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null) query.append(key, String(value));
  }
  const text = query.toString();
  if (!text) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${text}`;
}

/** The spec §8 text for an HTTP error status (also used for the token endpoint's errors). */
export function httpErrorText(status: number, body: ErrorBody, fallback: string): string {
  if (status === 401 && body.error === 'invalid_token') return i18n.t('http.loginExpired');
  if (status === 500 || status === 503) return i18n.t('http.serverUpgrading');
  if (status === 404) return i18n.t('http.networkError');
  if (status === 401) return i18n.t('http.noPermission');
  // Anything else: the server's own (already translated) words, else the raw status text.
  if (typeof body.message === 'string' && body.message) return body.message;
  if (typeof body.error_description === 'string' && body.error_description) {
    return body.error_description;
  }
  return fallback;
}

let reloginOpen = false;

function confirmRelogin(): void {
  // Several calls fail together when a session ends; one dialog is enough.
  if (reloginOpen) return;
  reloginOpen = true;
  feedback.confirm({
    title: i18n.t('http.loggedOutTitle'),
    content: i18n.t('http.loggedOut'),
    okText: i18n.t('http.relogin'),
    cancelText: i18n.t('http.cancel'),
    onOk: () => {
      clearAuthStorage();
      window.location.reload();
    },
    afterClose: () => {
      reloginOpen = false;
    },
  });
}

function report(error: HttpError, options: RequestOptions): void {
  if (options.silent) return;
  const onForm = options.quietFieldErrors && error.fieldErrors.length > 0;
  if (!onForm) feedback.error(error.message, TOAST_MS.error / 1000);
  if (error.code !== undefined && (SESSION_ENDED_CODES as readonly number[]).includes(error.code)) {
    confirmRelogin();
  }
}

function isExpiredToken(status: number, body: ErrorBody): boolean {
  return status === 401 && body.error === 'invalid_token' && body.code === CODE.tokenExpired;
}

async function send<T>(url: string, options: RequestOptions, retried: boolean): Promise<T> {
  const token = getToken();
  const role = getActiveRole();
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (role) headers[ROLE_CODE_HEADER] = role;
  if (options.data !== undefined) headers['Content-Type'] = 'application/json';
  if (options.raw !== undefined) headers['Content-Type'] = 'application/octet-stream';

  let response: Response;
  try {
    response = await fetch(buildUrl(url, options.params), {
      method: options.method ?? 'GET',
      headers,
      body: options.raw ?? (options.data === undefined ? undefined : JSON.stringify(options.data)),
      signal: options.signal,
      credentials: 'same-origin',
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    const error = new HttpError(
      cause instanceof Error && cause.message ? cause.message : i18n.t('http.networkError'),
      0,
      undefined,
      [],
    );
    report(error, options);
    throw error;
  }

  const body = await readJson(response);
  if (response.ok) {
    if (!isEnvelope(body)) return body as T;
    if (body.code === CODE.ok) return body.data as T;
    const error = new HttpError(
      body.message || i18n.t('http.error'),
      response.status,
      body.code,
      fieldErrorsOf(body),
    );
    report(error, options);
    throw error;
  }

  const errorBody = asErrorBody(body);
  if (token && !retried && isExpiredToken(response.status, errorBody)) {
    // Another call may already have refreshed while this one was in flight.
    const fresh = getToken() !== token ? getToken() : await refreshAccessToken();
    if (fresh) return send<T>(url, options, true);
  }
  const error = new HttpError(
    httpErrorText(response.status, errorBody, response.statusText || String(response.status)),
    response.status,
    numberOrUndefined(errorBody.code),
    fieldErrorsOf(errorBody),
  );
  report(error, options);
  throw error;
}

type NoMethod = Omit<RequestOptions, 'method'>;

/** The one HTTP client of the console: envelope unwrapping, token refresh and spec §8 errors. */
export const http = {
  request: <T>(url: string, options: RequestOptions = {}) => send<T>(url, options, false),
  get: <T>(url: string, options: NoMethod = {}) =>
    send<T>(url, { ...options, method: 'GET' }, false),
  post: <T>(url: string, options: NoMethod = {}) =>
    send<T>(url, { ...options, method: 'POST' }, false),
  put: <T>(url: string, options: NoMethod = {}) =>
    send<T>(url, { ...options, method: 'PUT' }, false),
  delete: <T>(url: string, options: NoMethod = {}) =>
    send<T>(url, { ...options, method: 'DELETE' }, false),
};
