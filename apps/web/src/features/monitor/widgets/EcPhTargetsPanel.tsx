import { Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PanelFrame } from './PanelFrame';
import { RangeSwitch } from './RangeSwitch';
import { TrendChart, type TrendBand, type TrendLine } from './TrendChart';
import { useRecipeTargets } from './use-recipe-targets';
import { STATE_COLOR } from './widget-colors';
import type { AreaWidgetProps } from './widget-types';

const KEYS = ['ec', 'ph'];

/**
 * EC and pH curves against the recipe's targets (dashed lines) and the band a running program
 * must stay in (shaded): outside it the server stops the program.
 */
export function EcPhTargetsPanel({ area, device }: AreaWidgetProps) {
  const { t } = useTranslation();
  const [hours, setHours] = useState(24);
  const targets = useRecipeTargets(area, device.id);
  const lines: TrendLine[] = [];
  const bands: TrendBand[] = [];
  for (const [key, target, band] of [
    ['ec', targets.ec, targets.ecBand],
    ['ph', targets.ph, targets.phBand],
  ] as const) {
    if (target === undefined) continue;
    lines.push({
      key,
      value: target,
      name: t('monitor.widget.targetLine', { value: target }),
      color: STATE_COLOR.running,
    });
    bands.push({ key, from: target - band, to: target + band, color: STATE_COLOR.running });
  }
  return (
    <PanelFrame
      title={t('monitor.widget.ecPhTargets')}
      testId="widget-ecPhTargets"
      extra={<RangeSwitch hours={[24, 168]} value={hours} onChange={setHours} />}
    >
      <TrendChart
        key={hours}
        device={device}
        keys={KEYS}
        hours={hours}
        lines={lines}
        bands={bands}
        testId="ec-ph-chart"
      />
      {targets.ec === undefined && targets.ph === undefined && (
        <Typography.Text type="secondary">{t('monitor.widget.noRecipe')}</Typography.Text>
      )}
    </PanelFrame>
  );
}
