import { useTranslation } from 'react-i18next';
import { PanelFrame } from './PanelFrame';
import { TrendChart } from './TrendChart';
import type { AreaWidgetProps } from './widget-types';

const KEYS = ['gateOpening', 'upstreamLevel', 'downstreamLevel', 'flow'];

/** The gate's last 24 hours: opening, the levels either side and the flow through it. */
export function GateFlowPanel({ device }: AreaWidgetProps) {
  const { t } = useTranslation();
  return (
    <PanelFrame title={t('monitor.widget.gateFlow')} testId="widget-gateFlow">
      <TrendChart device={device} keys={KEYS} hours={24} testId="gate-flow-chart" />
    </PanelFrame>
  );
}
