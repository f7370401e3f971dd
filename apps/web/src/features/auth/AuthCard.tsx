import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSelect } from '../../layout/LanguageSelect';
import styles from './AuthCard.module.css';

export interface AuthCardProps {
  subtitle: string;
  children: ReactNode;
  footer?: ReactNode;
}

/** The frame of the signed-out pages: product title, language choice and one card. */
export function AuthCard({ subtitle, children, footer }: AuthCardProps) {
  const { t } = useTranslation();
  return (
    <main className={styles.page}>
      <div className={styles.language}>
        <LanguageSelect />
      </div>
      <section className={styles.card}>
        <h1 className={styles.title}>{t('smart IoT management system')}</h1>
        <p className={styles.subtitle}>{subtitle}</p>
        {children}
        {footer && <div className={styles.footer}>{footer}</div>}
      </section>
    </main>
  );
}
