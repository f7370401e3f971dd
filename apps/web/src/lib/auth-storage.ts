import { TOKEN_COOKIE, TOKEN_SUFFIX } from '@shuili/contract';
import { getCookie, removeCookie, setCookie } from './cookies';

// Session storage keeps per-tab facts that must not outlive the browser tab (spec §4).
const TENANT_NAME_KEY = 'tenantName';
const ACTIVE_ROLE_KEY = 'activeRole';
// The last tenant signed into is a convenience across visits, so it lives in local storage.
const LAST_TENANT_KEY = 'shuili.lastTenant';

export interface RememberedTenant {
  tenantCode: string;
  tenantName: string;
}

export function getToken(): string | undefined {
  return getCookie(TOKEN_COOKIE) || undefined;
}

export function setToken(token: string): void {
  // A session cookie: the HttpOnly refresh cookie, not this one, carries the session further.
  setCookie(TOKEN_COOKIE, token);
}

export function removeToken(): void {
  removeCookie(TOKEN_COOKIE);
}

export function getTenantName(): string | undefined {
  return sessionStorage.getItem(TENANT_NAME_KEY) ?? undefined;
}

export function setTenantName(name: string): void {
  sessionStorage.setItem(TENANT_NAME_KEY, name);
}

/** The role-code header's value, "<role>-token"; unknown until user info has loaded. */
export function getActiveRole(): string | undefined {
  return sessionStorage.getItem(ACTIVE_ROLE_KEY) ?? undefined;
}

/** Spec §4 role switch: the token the role is sent as is the role's code plus "-token". */
export function setActiveRole(role: string): void {
  sessionStorage.setItem(ACTIVE_ROLE_KEY, role + TOKEN_SUFFIX);
}

export function getLastTenant(): RememberedTenant | undefined {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(LAST_TENANT_KEY) ?? 'null');
    if (
      value &&
      typeof value === 'object' &&
      typeof (value as RememberedTenant).tenantCode === 'string' &&
      typeof (value as RememberedTenant).tenantName === 'string'
    ) {
      return value as RememberedTenant;
    }
  } catch {
    // A hand-edited or stale entry is not worth an error; forget it.
  }
  return undefined;
}

export function setLastTenant(tenant: RememberedTenant): void {
  localStorage.setItem(LAST_TENANT_KEY, JSON.stringify(tenant));
}

/** Forgets the token and everything tied to it in the browser (spec §4 reset token). */
export function clearAuthStorage(): void {
  removeToken();
  sessionStorage.removeItem(TENANT_NAME_KEY);
  sessionStorage.removeItem(ACTIVE_ROLE_KEY);
}
