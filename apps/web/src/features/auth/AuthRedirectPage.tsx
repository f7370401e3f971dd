import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { safeRedirect } from '../../app/open-paths';
import { beginSession } from '../../app/session';
import { AuthCard } from './AuthCard';

/** Reads `token` and `redirect` from the query, else from a hash such as `#token=..`. */
function readParams(search: string, hash: string): URLSearchParams {
  const query = new URLSearchParams(search);
  if (query.has('token')) return query;
  const fragment = hash.replace(/^#\/?\??/, '');
  return new URLSearchParams(fragment);
}

/** Spec §2 /auth-redirect: single sign-on hands a token over and the console carries on. */
export function AuthRedirectPage() {
  const { t } = useTranslation();
  const { search, hash } = useLocation();
  const navigate = useNavigate();
  const params = useMemo(() => readParams(search, hash), [search, hash]);
  const token = params.get('token')?.trim();
  const redirect = safeRedirect(params.get('redirect'));

  useEffect(() => {
    if (!token) return;
    beginSession(token);
    void navigate(redirect ?? '/', { replace: true });
  }, [token, redirect, navigate]);

  return (
    <AuthCard subtitle={t('route.authRedirect')}>
      {!token ? (
        <p data-testid="auth-redirect-missing">
          {t('authRedirect.missingToken')} <Link to="/login">{t('route.login')}</Link>
        </p>
      ) : (
        <p>{t('authRedirect.signingIn')}</p>
      )}
    </AuthCard>
  );
}
