import { Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLatestReadings } from '../led/use-latest-readings';
import { numberOf } from '../widgets/device-values';
import { LabelledValue } from '../widgets/LabelledValue';
import { NO_VALUE, useValueText } from '../widgets/use-value-text';
import { runColor } from '../widgets/widget-colors';
import type { AreaWidgetProps } from '../widgets/widget-types';

/**
 * A card-swipe well controller on its card: the pump running or stopped, the card on the reader
 * (its `cardNo`, a text: read from the latest values, as the area list answers numbers only),
 * the flow now and the water and energy meters.
 */
export function CardControllerCard({ device }: AreaWidgetProps) {
  const { t } = useTranslation();
  const { text, name } = useValueText(device);
  const card =
    useLatestReadings([device.id])[0]?.find((item) => item.key === 'cardNo')?.textValue ?? '';
  const running = numberOf(device, 'pumpRunning');
  const runText =
    running === undefined
      ? NO_VALUE
      : running
        ? t('monitor.widget.running')
        : t('monitor.widget.stopped');
  return (
    <Flex
      vertical
      gap={2}
      data-testid="widget-cardController"
      data-running={running === undefined ? 'unknown' : running ? 'true' : 'false'}
      data-card={card}
    >
      <Typography.Text strong style={{ color: runColor(running, device.online) }}>
        {name('pumpRunning')}: {runText}
      </Typography.Text>
      <LabelledValue label={name('cardNo')}>
        <span data-testid="card-controller-card">{card || NO_VALUE}</span>
      </LabelledValue>
      <Flex gap={12} wrap>
        <LabelledValue label={t('monitor.widget.flow')}>{text('flow')}</LabelledValue>
        <LabelledValue label={name('cumulativeVolume')}>{text('cumulativeVolume')}</LabelledValue>
        <LabelledValue label={name('energy')}>{text('energy')}</LabelledValue>
      </Flex>
    </Flex>
  );
}
