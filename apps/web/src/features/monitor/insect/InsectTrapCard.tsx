import { DEVICE_FILE_CALLS, INSECT_CALLS, type LatestTrapPhoto } from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { Flex, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { http } from '../../../lib/http';
import { numberOf } from '../widgets/device-values';
import { useValueText } from '../widgets/use-value-text';
import type { AreaWidgetProps } from '../widgets/widget-types';
import { AuthImage } from './AuthImage';
import { photoTimeText } from './photo-time';

/** How often a card looks for a newer photo (traps photograph every two hours at night). */
const PHOTO_REFRESH_MS = 60_000;

/**
 * An insect trap's card beside its readings (catch today and in all are key factors): its lamp
 * as a tag and its newest tray photo.
 */
export function InsectTrapCard({ device }: AreaWidgetProps) {
  const { t } = useTranslation();
  const { text, name } = useValueText(device);
  const lamp = numberOf(device, 'lampOn');
  const latest = useQuery({
    queryKey: ['insect', 'latestPhoto', device.id],
    queryFn: ({ signal }) =>
      http.get<LatestTrapPhoto[]>(INSECT_CALLS.latestPhotos, {
        params: { deviceIds: device.id },
        signal,
        silent: true,
      }),
    refetchInterval: PHOTO_REFRESH_MS,
  });
  const photo = latest.data?.[0];
  return (
    <Flex gap={12} align="flex-start" data-testid="widget-insectTrap">
      <Flex vertical gap={4} style={{ flex: 1, minWidth: 0 }}>
        <span>
          <Tag
            color={lamp === undefined ? 'default' : lamp ? 'gold' : 'default'}
            data-testid="insect-lamp"
            data-on={lamp === undefined ? '' : String(Boolean(lamp))}
          >
            {name('lampOn')}{' '}
            {lamp === undefined
              ? text('lampOn')
              : lamp
                ? t('monitor.insect.lampOn')
                : t('monitor.insect.lampOff')}
          </Tag>
        </span>
      </Flex>
      <Flex vertical align="center" gap={2}>
        <AuthImage
          url={DEVICE_FILE_CALLS.download}
          id={photo?.id}
          alt={t('monitor.insect.latestPhoto')}
          width={128}
          height={96}
          testId="insect-latest-photo"
        />
        <Typography.Text type="secondary" style={{ fontSize: 11 }}>
          {photo ? photoTimeText(photo.takenAt) : t('monitor.insect.noPhoto')}
        </Typography.Text>
      </Flex>
    </Flex>
  );
}
