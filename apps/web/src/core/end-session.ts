import { getToken } from '../lib/auth-storage';
import { http } from '../lib/http';
import { resetToken, startSigningOut } from './session';

/** The tab views in session storage: kept across a token reset, closed here (spec §4). */
export const TAB_VIEWS_KEY = 'shuili.tabViews';

/** What closes the tab views in memory when the session ends (the tags view registers). */
export const viewClosers = new Set<() => void>();

/**
 * Spec §4 logout, and the start of a third-party sign-in "the same way": tell the server, then
 * reset everything the session left in the browser (resetToken) and close all tab views, which a
 * reset alone keeps. `leaving` marks a logout: the route guard, seeing no token, then shows plain
 * /login. Not part of the sign-in page's code: only the console and /thirdLogin end sessions.
 */
export async function endSession(leaving = false): Promise<void> {
  try {
    if (getToken()) await http.post('/api/uaa/oauth/logout', { silent: true });
  } catch {
    // Signing out locally must work even when the server cannot be reached.
  }
  if (leaving) startSigningOut();
  sessionStorage.removeItem(TAB_VIEWS_KEY);
  resetToken();
  viewClosers.forEach((close) => close());
}

export const logout = () => endSession(true);
