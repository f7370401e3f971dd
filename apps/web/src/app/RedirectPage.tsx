import { Navigate, useLocation, useParams } from 'react-router';

/**
 * Spec §2 refresh: /redirect{fullPath} comes straight back to fullPath. The screen left the page
 * for a moment, so it mounts afresh.
 */
export function RedirectPage() {
  const { '*': rest = '' } = useParams();
  const { search, hash } = useLocation();
  return <Navigate to={`/${rest}${search}${hash}`} replace />;
}
