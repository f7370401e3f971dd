import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** Spec §2: where unknown paths land. */
export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Result
      status="404"
      title="404"
      subTitle={t('errors.notFound')}
      extra={
        <Link to="/">
          <Button type="primary">{t('errors.backHome')}</Button>
        </Link>
      }
    />
  );
}
