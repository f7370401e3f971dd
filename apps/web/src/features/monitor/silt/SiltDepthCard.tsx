import { Progress, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { numberOf } from '../widgets/device-values';
import { useAreaSettings } from '../widgets/use-area-settings';
import { useValueText } from '../widgets/use-value-text';
import { ALARM_COLOR, STATE_COLOR } from '../widgets/widget-colors';
import type { AreaWidgetProps } from '../widgets/widget-types';

/**
 * A canal section's silt against its dredging depth: how full the allowance is, orange once the
 * bed has passed it (the silt warning's condition).
 */
export function SiltDepthCard({ area, device }: AreaWidgetProps) {
  const { t } = useTranslation();
  const { text } = useValueText(device);
  const dredging = Number(useAreaSettings(area, device.id).value('dredgingDepth'));
  const depth = numberOf(device, 'siltDepth');
  const past = depth !== undefined && depth > dredging;
  return (
    <div
      data-testid="widget-siltDepth"
      data-state={depth === undefined ? 'unknown' : past ? 'dredge' : 'normal'}
      style={{ marginBottom: 8 }}
    >
      <Progress
        percent={depth === undefined ? 0 : Math.min(100, Math.round((depth / dredging) * 100))}
        strokeColor={past ? ALARM_COLOR.orange : STATE_COLOR.waterDeep}
        showInfo={false}
        size="small"
      />
      <Typography.Text style={{ fontSize: 12 }} type={past ? 'warning' : 'secondary'}>
        {t(past ? 'monitor.silt.pastDredging' : 'monitor.silt.belowDredging', {
          depth: text('siltDepth'),
          dredging,
        })}
      </Typography.Text>
    </div>
  );
}
