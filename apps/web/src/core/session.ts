import {
  ORG_LIST_PAGE_SIZE,
  type Authority,
  type Org,
  type PageResult,
  type SysUser,
} from '@shuili/contract';
import { i18n } from '../i18n/i18n';
import { clearAuthStorage, setActiveRole, setTenantName, setToken } from '../lib/auth-storage';
import { http } from '../lib/http';
import { loadRouteTables } from './route-tables';
import { resetSessionStore, useSessionStore, type SessionState } from './session-store';

/** A session that cannot be established; its message is shown before returning to sign-in. */
export class SessionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SessionError';
  }
}

/**
 * Spec §4: user info (roles), then the menu authority, then the organisations, then the routes,
 * generated for the role the user acts as (the server's menu and grants are that role's too).
 */
export async function fetchSession(): Promise<SessionState> {
  // Route generation and the route list come with the console, not with the sign-in page.
  const routing = Promise.all([loadRouteTables(), import('./generate-routes')]);
  // Awaited below; a sign-in that fails first must not leave its failure unhandled.
  routing.catch(() => undefined);
  // The guard reports failures itself (one toast, then back to sign-in), so calls stay silent.
  const user = await http.get<SysUser | null>('/api/uaa/users/getSysUser', { silent: true });
  if (!user) throw new SessionError(i18n.t('session.verificationFailed'));
  if (!Array.isArray(user.roles) || user.roles.length === 0) {
    throw new SessionError(i18n.t('session.rolesRequired'));
  }
  const activeRole = user.activeRole || user.roles[0]!;
  setActiveRole(activeRole);
  setTenantName(user.tenantName);

  const authority = await http.post<Authority>('/api/account/sysuserdetail/queryCurrentAuthority', {
    params: { username: user.username },
    silent: true,
  });
  const orgPage = await http.get<PageResult<Org>>('/api/account/sysuserdetail/queryCurrentOrgs', {
    params: { currentPage: 1, pageSize: ORG_LIST_PAGE_SIZE },
    silent: true,
  });

  const [{ asyncRoutes }, { generateRoutes }] = await routing;
  return {
    status: 'ready',
    user,
    roles: user.roles,
    activeRole,
    menu: authority.menu,
    menuButtons: authority.menuButton,
    orgs: orgPage.list,
    routes: generateRoutes(asyncRoutes, [activeRole], authority.menu),
  };
}

/** Reloads the signed-in user: the server translates its tenant name into the current language. */
export async function refreshUser(): Promise<void> {
  if (useSessionStore.getState().status !== 'ready') return;
  const user = await http.get<SysUser | null>('/api/uaa/users/getSysUser', { silent: true });
  // The session may have ended while the answer was on its way.
  if (!user || useSessionStore.getState().status !== 'ready') return;
  setTenantName(user.tenantName);
  useSessionStore.setState({ user });
}

let loading: Promise<void> | undefined;

/**
 * Spec §4: on the first navigation with a token, load user info, then the menu authority, then
 * the organisations, then generate the routes. Later navigations find the session ready.
 */
export function ensureSession(): Promise<void> {
  if (useSessionStore.getState().status === 'ready') return Promise.resolve();
  loading ??= fetchSession()
    .then(useSessionStore.setState)
    .finally(() => {
      loading = undefined;
    });
  return loading;
}

/**
 * Spec §4 reset token: forget the token, roles, menu buttons, tenant name and routes. The tab
 * views stay (a Re-Login as the same user finds them again); only ending the session closes them.
 */
export function resetToken(): void {
  clearAuthStorage();
  resetSessionStore();
}

let signingOut = false;

/** True between a logout and the sign-in page it leads to: the guard then sends to plain /login. */
export function isSigningOut(): boolean {
  return signingOut;
}

/** Called by the sign-in page once it shows: the logout has arrived. */
export function endSigningOut(): void {
  signingOut = false;
}

/** A logout is under way (end-session.ts, which the sign-in page does not download). */
export function startSigningOut(): void {
  signingOut = true;
}

/** Starts a session from a fresh access token: whatever an earlier session left is dropped. */
export function beginSession(token: string, tenantName?: string): void {
  resetToken();
  setToken(token);
  if (tenantName) setTenantName(tenantName);
}
