import { useTranslation } from 'react-i18next';
import { PanelFrame } from './PanelFrame';
import { TrendChart, type TrendLine } from './TrendChart';
import { useAreaSettings } from './use-area-settings';
import { STATE_COLOR } from './widget-colors';
import type { AreaWidgetProps } from './widget-types';

const KEYS = ['flow', 'outletPressure', 'forebayLevel'];

/** The station's last 24 hours: flow, outlet pressure and forebay level against the dry-run line. */
export function PumpTrendPanel({ area, device }: AreaWidgetProps) {
  const { t } = useTranslation();
  const dryRun = Number(useAreaSettings(area, device.id).value('dryRunLevel'));
  const lines: TrendLine[] = Number.isFinite(dryRun)
    ? [
        {
          key: 'forebayLevel',
          value: dryRun,
          name: t('monitor.widget.dryRunAt', { level: dryRun }),
          color: STATE_COLOR.fault,
        },
      ]
    : [];
  return (
    <PanelFrame title={t('monitor.widget.pumpTrend')} testId="widget-pumpTrend">
      <TrendChart device={device} keys={KEYS} hours={24} lines={lines} testId="pump-trend-chart" />
    </PanelFrame>
  );
}
