import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** Spec §2: shown when the signed-in user may not open a page. */
export function UnauthorizedPage() {
  const { t } = useTranslation();
  return (
    <Result
      status="403"
      title="401"
      subTitle={t('errors.unauthorized')}
      extra={
        <Link to="/">
          <Button type="primary">{t('errors.backHome')}</Button>
        </Link>
      }
    />
  );
}
