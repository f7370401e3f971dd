import { useTranslation } from 'react-i18next';
import { PanelFrame } from './PanelFrame';
import { TrendChart } from './TrendChart';
import type { AreaWidgetProps } from './widget-types';

const KEYS = ['airTemperature', 'airHumidity', 'airPressure'];

/** The station's last 24 hours of temperature, humidity and pressure. */
export function Weather24hPanel({ device }: AreaWidgetProps) {
  const { t } = useTranslation();
  return (
    <PanelFrame title={t('monitor.widget.weather24h')} testId="widget-weather24h">
      <TrendChart device={device} keys={KEYS} hours={24} testId="weather-24h-chart" />
    </PanelFrame>
  );
}
