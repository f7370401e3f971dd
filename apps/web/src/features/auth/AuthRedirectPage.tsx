import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { HOME_PATH, loginPath, safeRedirect } from '../../core/open-paths';
import { getToken } from '../../lib/auth-storage';
import { AuthCard } from './AuthCard';

/** What a link could carry to sign a browser in, in its query or its hash (`#token=..`). */
const CREDENTIAL_PARAMS = ['token', 'access_token', 'code'];

function readParams(search: string, hash: string): URLSearchParams {
  const query = new URLSearchParams(search);
  for (const [name, value] of new URLSearchParams(hash.replace(/^#\/?\??/, ''))) {
    if (!query.has(name)) query.set(name, value);
  }
  return query;
}

/**
 * Spec §2 /auth-redirect, open without sign-in: carries on to `redirect` with the session this
 * browser already has, or through sign-in without one. It never takes a credential from the
 * link: a link anyone can send would otherwise sign its victim in as the sender (login CSRF),
 * and nothing in the product hands a session over this way. A link that carries one is refused,
 * and the credential is dropped from the address bar and history.
 */
export function AuthRedirectPage() {
  const { t } = useTranslation();
  const { search, hash } = useLocation();
  const navigate = useNavigate();
  const [{ planted, target }] = useState(() => {
    const params = readParams(search, hash);
    return {
      planted: CREDENTIAL_PARAMS.some((name) => params.has(name)),
      target: safeRedirect(params.get('redirect')) ?? HOME_PATH,
    };
  });
  const signedIn = Boolean(getToken());

  useEffect(() => {
    if (planted) {
      void navigate('/auth-redirect', { replace: true });
      return;
    }
    void navigate(signedIn ? target : loginPath(target), { replace: true });
  }, [planted, signedIn, target, navigate]);

  return (
    <AuthCard subtitle={t('route.authRedirect')}>
      {/* Without a credential in the link the page is gone at once. */}
      {planted && (
        <p data-testid="auth-redirect-refused">
          {t('authRedirect.linkRefused')}{' '}
          <Link to={signedIn ? target : loginPath(target)}>
            {signedIn ? t('authRedirect.carryOn') : t('route.login')}
          </Link>
        </p>
      )}
    </AuthCard>
  );
}
