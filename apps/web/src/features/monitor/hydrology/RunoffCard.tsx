import { useQuery } from '@tanstack/react-query';
import { Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/format';
import { LabelledValue } from '../widgets/LabelledValue';
import { useValueText } from '../widgets/use-value-text';
import type { AreaWidgetProps } from '../widgets/widget-types';
import { plotEvents } from './runoff-api';

/**
 * A runoff plot's card: the flow now, and its latest event (when, rain, runoff volume,
 * sediment yield and runoff coefficient), the figures an operator compares plots by.
 */
export function RunoffCard({ device }: AreaWidgetProps) {
  const { t } = useTranslation();
  const { text, name } = useValueText(device);
  const latest = useQuery({
    queryKey: ['monitor', 'runoffEvents', device.id, 1],
    queryFn: ({ signal }) => plotEvents(device.id, 1, signal),
  });
  const event = latest.data?.[0];
  return (
    <Flex vertical gap={2} data-testid="widget-runoffCard">
      <LabelledValue label={name('flow')}>{text('flow')}</LabelledValue>
      {event ? (
        <>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t(event.ongoing ? 'monitor.hydrology.eventOngoing' : 'monitor.hydrology.lastEvent', {
              start: formatDate(event.startAt, 'MM-DD HH:mm'),
            })}
          </Typography.Text>
          <LabelledValue label={t('monitor.hydrology.rain')}>
            {`${(event.rainfall ?? 0).toFixed(1)} mm`}
          </LabelledValue>
          <LabelledValue label={t('monitor.hydrology.volume')}>
            <span data-testid="runoff-card-volume">
              {`${(event.runoffVolume ?? 0).toFixed(3)} m³`}
            </span>
          </LabelledValue>
          <LabelledValue label={t('monitor.hydrology.coefficient')}>
            {event.runoffCoefficient === null ? '—' : event.runoffCoefficient.toFixed(2)}
          </LabelledValue>
        </>
      ) : (
        !latest.isPending && (
          <Typography.Text type="secondary">{t('monitor.hydrology.noEvents')}</Typography.Text>
        )
      )}
    </Flex>
  );
}
