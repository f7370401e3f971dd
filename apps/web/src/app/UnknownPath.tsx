import { Navigate, useLocation } from 'react-router';
import { getToken } from '../lib/auth-storage';
import { loginPath, OPEN_PATHS } from './open-paths';

/** Unknown paths: /404 when signed in (or open anyway); otherwise sign in first, as anywhere. */
export function UnknownPath() {
  const { pathname, search } = useLocation();
  if (getToken() || OPEN_PATHS.includes(pathname)) return <Navigate to="/404" replace />;
  return <Navigate to={loginPath(`${pathname}${search}`)} replace />;
}
