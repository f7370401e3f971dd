import type { ThirdLoginProvider } from '@shuili/contract';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { http } from '../../../lib/http';
import { AuthCard } from '../AuthCard';

/**
 * Spec §2 /thirdLogin?client=<clientId>, open without sign-in: starts a third-party sign-in.
 * Whoever was signed in here is signed out first, the same way as a logout (spec §4); then the
 * browser goes to the identity provider the named app client configures (the server answers only
 * a configured address). Where none is configured, the page says so.
 */
export function ThirdLoginPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const clientId = searchParams.get('client') || undefined;
  const [problem, setProblem] = useState<string>();

  useEffect(() => {
    let current = true;
    void (async () => {
      try {
        // Loaded here, not with the page: the sign-in page's route table lists each file a
        // lazy page needs, and this one stays off that list.
        const { endSession } = await import('../../../core/end-session');
        await endSession();
        const provider = await http.get<ThirdLoginProvider>('/api/uaa/thirdLogin/provider', {
          params: { clientId },
          silent: true,
        });
        if (!current) return;
        if (provider) window.location.assign(provider.url);
        else setProblem(t('thirdLogin.none'));
      } catch (error) {
        if (current) setProblem((error as Error).message);
      }
    })();
    return () => {
      current = false;
    };
  }, [clientId, t]);

  return (
    <AuthCard subtitle={t('route.authRedirect')}>
      <p data-testid={problem ? 'third-login-problem' : 'third-login-starting'}>
        {problem ?? t('thirdLogin.starting')}
      </p>
      {problem && (
        <Link to="/login" data-testid="third-login-back">
          {t('thirdLogin.backToLogin')}
        </Link>
      )}
    </AuthCard>
  );
}
