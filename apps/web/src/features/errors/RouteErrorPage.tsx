import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { progress } from '../../lib/progress';
import styles from './RouteErrorPage.module.css';

/** The last resort when a screen throws or its code cannot load (after a deploy, say). */
export function RouteErrorPage() {
  const error = useRouteError();
  const { t } = useTranslation();

  useEffect(() => {
    progress.done();
    // Kept in the console so the cause is not lost; an error-log screen comes later (spec §4).
    console.error(error);
  }, [error]);

  return (
    <div className={styles.page} role="alert">
      <h1 className={styles.title}>{t('errors.crashed')}</h1>
      <p>{t('errors.crashedHint')}</p>
      <button type="button" className={styles.button} onClick={() => window.location.reload()}>
        {t('errors.reload')}
      </button>
    </div>
  );
}
