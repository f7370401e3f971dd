import { useEffect } from 'react';
import { Navigate, useLocation } from 'react-router';
import { getToken } from '../lib/auth-storage';
import { progress } from '../lib/progress';
import { loadClosedRoutes, useClosedRoutes } from './closed-routes-loader';
import { loginPath, OPEN_PATHS, SERVER_PAGES } from '../core/open-paths';

/**
 * Unknown paths: /404 when signed in (or open anyway); otherwise sign in first, as anywhere.
 * The public trace pages (SERVER_PAGES) are loaded from the server instead.
 * With a token and the signed-in routes not yet downloaded, the path may well be a console
 * screen: they download first, and the route table then decides.
 */
export function UnknownPath() {
  const { pathname, search } = useLocation();
  // Subscribed: once they arrive, this renders again even if the route table still lands here.
  const closedRoutes = useClosedRoutes();
  const signedIn = !!getToken();
  const serverPage = SERVER_PAGES.includes(pathname);
  const waiting = signedIn && !closedRoutes && !serverPage;

  useEffect(() => {
    if (waiting) void progress.track(loadClosedRoutes()).catch(() => undefined);
  }, [waiting]);
  useEffect(() => {
    // The public trace pages are the server's own page: load it, not a console screen.
    if (serverPage) window.location.replace(`${pathname}${search}`);
  }, [serverPage, pathname, search]);

  if (waiting || serverPage) return null;
  if (signedIn || OPEN_PATHS.includes(pathname)) return <Navigate to="/404" replace />;
  return <Navigate to={loginPath(`${pathname}${search}`)} replace />;
}
