import { TOAST_MS } from '@shuili/contract';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { getToken } from '../lib/auth-storage';
import { feedback } from '../lib/feedback';
import { progress } from '../lib/progress';
import { asyncRoutes } from './async-routes';
import { isPathAllowed } from '../core/generate-routes';
import { ConsoleRoutePage } from './console-route-page';
import { loginPath } from '../core/open-paths';
import { ensureSession, isSigningOut, resetToken } from '../core/session';
import { useSessionStore } from '../core/session-store';

/**
 * The guard of every closed route (spec §2, §4): no token → sign in, remembering the target;
 * with a token, load the session once, then enter the target if route generation allows it.
 */
export function RequireSession({ onPreload }: { onPreload?: (pathname: string) => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const target = `${pathname}${search}`;
  const status = useSessionStore((state) => state.status);
  const routes = useSessionStore((state) => state.routes);
  const token = getToken();

  useEffect(() => {
    if (!token || status === 'ready') return;
    let current = true;
    // The console's code and the target screen download while the session loads, not after.
    onPreload?.(pathname);
    progress.track(ensureSession()).catch((error: unknown) => {
      // Spec §8: reset the token, say why, and go back to sign-in remembering the target.
      const text = error instanceof Error && error.message ? error.message : t('session.hasError');
      feedback.error(text, TOAST_MS.error / 1000);
      resetToken();
      if (current) void navigate(loginPath(target), { replace: true });
    });
    return () => {
      current = false;
    };
  }, [token, status, t, navigate, target, pathname, onPreload]);

  if (!token) {
    // After a logout the user chose to leave: plain /login, no way back to this page (spec §4).
    return <Navigate to={isSigningOut() ? '/login' : loginPath(target)} replace />;
  }
  if (status !== 'ready') return null;
  if (!isPathAllowed(pathname, asyncRoutes, routes)) return <Navigate to="/404" replace />;
  return <ConsoleRoutePage />;
}
