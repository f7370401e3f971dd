import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PanelFrame } from '../widgets/PanelFrame';
import { RangeSwitch } from '../widgets/RangeSwitch';
import { TrendChart, type TrendLine } from '../widgets/TrendChart';
import { useAreaSettings } from '../widgets/use-area-settings';
import { ALARM_COLOR } from '../widgets/widget-colors';
import type { AreaWidgetProps } from '../widgets/widget-types';

/** The water level's trend against the station's warning (orange) and guarantee (red) lines. */
export function FloodLevelPanel({ area, device }: AreaWidgetProps) {
  const { t } = useTranslation();
  const [hours, setHours] = useState(24);
  const settings = useAreaSettings(area, device.id);
  const line = (
    setting: string,
    color: string,
    name: 'monitor.flood.warningLine' | 'monitor.flood.guaranteeLine',
  ): TrendLine[] => {
    const level = Number(settings.value(setting));
    return Number.isFinite(level)
      ? [{ key: 'waterLevel', value: level, color, name: t(name, { level }) }]
      : [];
  };
  const lines = [
    ...line('warningLevel', ALARM_COLOR.orange!, 'monitor.flood.warningLine'),
    ...line('guaranteeLevel', ALARM_COLOR.red!, 'monitor.flood.guaranteeLine'),
  ];
  return (
    <PanelFrame
      title={t('monitor.flood.levelTrend')}
      testId="widget-floodLevel"
      extra={<RangeSwitch hours={[24, 72, 168]} value={hours} onChange={setHours} />}
    >
      <TrendChart
        key={hours}
        device={device}
        keys={['waterLevel']}
        hours={hours}
        lines={lines}
        testId="flood-level-chart"
      />
    </PanelFrame>
  );
}
