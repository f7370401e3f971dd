import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/format';
import { useNow } from '../../../lib/use-now';
import { formatAge } from '../../iot/device/reading-age';

/**
 * When the device was last heard from, as an age kept current ("12 s ago"), the time on hover
 * (the browser's title: one per row of a long list).
 */
export function LastSeen({ at }: { at: string | null }) {
  const { t } = useTranslation();
  const now = useNow();
  const ms = at ? Date.parse(at) : Number.NaN;
  if (!Number.isFinite(ms))
    return <Typography.Text type="secondary">{t('iot.device.never')}</Typography.Text>;
  return (
    <span data-testid="area-last-seen" title={formatDate(ms)}>
      {formatAge(ms, now, t)}
    </span>
  );
}
