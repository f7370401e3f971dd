import {
  BROWSER_CLIENT_ID,
  BROWSER_SCOPE,
  DEFAULT_BROWSER_CLIENT_SECRET,
  type FieldError,
  type OAuthError,
  type TokenResponse,
} from '@shuili/contract';
import { getToken, setToken } from './auth-storage';
import { readJson } from './read-json';

const TOKEN_URL = '/api/uaa/oauth/token';
const BASIC_AUTH = `Basic ${btoa(`${BROWSER_CLIENT_ID}:${DEFAULT_BROWSER_CLIENT_SECRET}`)}`;

/** A refused token request: the RFC 6749 error, the server's translated text and field errors. */
export class OAuthRequestError extends Error {
  readonly status: number;
  readonly error: OAuthError['error'] | undefined;
  readonly fieldErrors: FieldError[];
  /** With mfa_enrollment_required: the ticket that opens the authenticator set-up. */
  readonly mfaTicket: string | undefined;

  constructor(status: number, body: Partial<OAuthError> | null, fallback: string) {
    super(body?.error_description || fallback);
    this.name = 'OAuthRequestError';
    this.status = status;
    this.error = body?.error;
    this.fieldErrors = Array.isArray(body?.errors) ? body.errors : [];
    this.mfaTicket = body?.mfa_ticket;
  }
}

export type PasswordGrant = {
  grant_type: 'password';
  tenantCode: string;
  username: string;
  password: string;
  /** The code sent to the account, when the server asked for it (captcha_required). */
  captcha?: string;
  /** The authenticator's code (or a recovery code), when the server asked for it. */
  totpCode?: string;
};
export type MobileGrant = {
  grant_type: 'mobile';
  tenantCode: string;
  mobile: string;
  smsCaptcha: string;
  totpCode?: string;
};

async function postToken(params: Record<string, string>): Promise<TokenResponse> {
  // Spec §7 names the parameters; the console sends them as a form body (which the server reads
  // like the spec's query string) so the password never appears in a URL, where proxies and
  // browser tools keep it. The client authenticates with basic authorization.
  const form = new URLSearchParams({
    scope: BROWSER_SCOPE,
    client_id: BROWSER_CLIENT_ID,
    ...params,
  });
  const response = await fetch(TOKEN_URL, {
    method: 'POST',
    body: form,
    // URLSearchParams brings its content type, application/x-www-form-urlencoded.
    headers: {
      Authorization: BASIC_AUTH,
      Accept: 'application/json',
    },
    credentials: 'same-origin',
  });
  const body = await readJson(response);
  if (!response.ok) {
    throw new OAuthRequestError(
      response.status,
      body && typeof body === 'object' ? (body as Partial<OAuthError>) : null,
      response.statusText || String(response.status),
    );
  }
  return body as TokenResponse;
}

/** Signs in with a password or an SMS code; the caller stores the token. */
export function requestToken(grant: PasswordGrant | MobileGrant): Promise<TokenResponse> {
  const type = grant.grant_type === 'password' ? 'account' : 'mobile';
  return postToken({ ...grant, type });
}

let refreshing: Promise<string | undefined> | undefined;

/** Runs `work` while holding a lock shared by every tab of the console (where the browser has one). */
function acrossTabs<T>(work: () => Promise<T>): Promise<T> {
  return typeof navigator !== 'undefined' && navigator.locks
    ? (navigator.locks.request('shuili-token-refresh', work) as Promise<T>)
    : work();
}

/**
 * Trades the HttpOnly refresh cookie for a new access token and stores it. Callers share one
 * request per tab, and tabs take turns (Web Locks): the server rotates the refresh token, and a
 * tab that waited finds the token another tab already refreshed in the shared cookie instead of
 * presenting the spent refresh token. Resolves to undefined when the session cannot be refreshed.
 */
export function refreshAccessToken(): Promise<string | undefined> {
  const stale = getToken();
  refreshing ??= acrossTabs(async () => {
    const current = getToken();
    if (current && current !== stale) return current;
    const token = await postToken({ grant_type: 'refresh_token' });
    setToken(token.access_token);
    return token.access_token;
  })
    .catch(() => undefined)
    .finally(() => {
      refreshing = undefined;
    });
  return refreshing;
}
