import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { numberOf } from './device-values';
import {
  SOIL_DEPTHS,
  moistureKey,
  moistureState,
  soilLimits,
  type MoistureState,
} from './soil-profile';
import { useAreaSettings } from './use-area-settings';
import { STATE_COLOR } from './widget-colors';
import { useValueText } from './use-value-text';
import type { AreaWidgetProps } from './widget-types';

const STATE_FILL: Record<MoistureState, string> = {
  dry: STATE_COLOR.fault,
  low: STATE_COLOR.warning,
  good: STATE_COLOR.running,
  wet: STATE_COLOR.waterDeep,
};

const LABEL_W = 40;
const BAR_W = 150;
const ROW = 22;

/**
 * Moisture at 10, 20, 40 and 60 cm as bars, coloured against the station's soil: red at the
 * wilting point, orange when half the available water is gone, green up to field capacity, blue
 * above; the two limits marked on each bar.
 */
export function SoilBarsCard({ area, device }: AreaWidgetProps) {
  const { t } = useTranslation();
  const { text } = useValueText(device);
  const settings = useAreaSettings(area, device.id);
  const limits = soilLimits(settings.value('soilType'));
  const values = SOIL_DEPTHS.map((depth) => numberOf(device, moistureKey(depth)));
  const scale = Math.max(limits.fieldCapacity * 1.4, ...values.map((value) => (value ?? 0) * 1.1));
  const x = (value: number) => LABEL_W + (Math.max(0, value) / scale) * BAR_W;

  return (
    <div data-testid="widget-soilBars">
      <svg
        viewBox={`0 0 ${LABEL_W + BAR_W + 60} ${SOIL_DEPTHS.length * ROW + 4}`}
        width="100%"
        role="img"
        aria-label={t('monitor.widget.soilBars')}
      >
        {SOIL_DEPTHS.map((depth, index) => {
          const value = values[index];
          const top = index * ROW + 4;
          return (
            <g
              key={depth}
              data-testid="soil-bar"
              data-depth={depth}
              data-state={value === undefined ? 'unknown' : moistureState(value, limits)}
            >
              <text x={0} y={top + 12} fontSize={11} fill="#595959">
                {t('monitor.widget.depthCm', { depth })}
              </text>
              <rect x={LABEL_W} y={top} width={BAR_W} height={14} fill="#f0f0f0" />
              {value !== undefined && (
                <rect
                  x={LABEL_W}
                  y={top}
                  width={x(value) - LABEL_W}
                  height={14}
                  fill={STATE_FILL[moistureState(value, limits)]}
                />
              )}
              {[limits.wiltingPoint, limits.fieldCapacity].map((limit) => (
                <line
                  key={limit}
                  x1={x(limit)}
                  x2={x(limit)}
                  y1={top - 2}
                  y2={top + 16}
                  stroke="#262626"
                />
              ))}
              <text x={LABEL_W + BAR_W + 4} y={top + 12} fontSize={11} fill="#262626">
                {text(moistureKey(depth))}
              </text>
            </g>
          );
        })}
      </svg>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('monitor.widget.limits', { wp: limits.wiltingPoint, fc: limits.fieldCapacity })}
      </Typography.Text>
    </div>
  );
}
