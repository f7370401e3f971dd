import { useQuery } from '@tanstack/react-query';
import { Spin, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../../resource/field-label';
import { EChart } from '../../iot/charts/EChart';
import { referenceLine } from './chart-extras';
import { DAY_MS, HOUR_MS } from './chart-range';
import { numberOf } from './device-values';
import { PanelFrame } from './PanelFrame';
import { SOIL_DEPTHS, moistureKey, profileAt, soilLimits } from './soil-profile';
import { aggregatePoints, fetchAggregates } from './telemetry-calls';
import { useAreaSettings } from './use-area-settings';
import { STATE_COLOR } from './widget-colors';
import type { AreaWidgetProps } from './widget-types';

const KEYS = SOIL_DEPTHS.map(moistureKey);
/** An hourly value this far from the moment still stands for it (stations report every 10 min). */
const TOLERANCE_MS = 3 * HOUR_MS;

const asText = (profile: readonly (number | undefined)[]) =>
  profile.map((value) => (value === undefined ? '' : value.toFixed(1))).join(',');

/**
 * The moisture profile down the probe (10, 20, 40, 60 cm): now, 24 hours and 7 days ago, against
 * the field capacity and wilting point of the station's soil type (setting soilType).
 */
export function SoilProfilePanel({ area, device }: AreaWidgetProps) {
  const { t } = useTranslation();
  const label = useLabel();
  const settings = useAreaSettings(area, device.id);
  const soilType = settings.value('soilType');
  const limits = soilLimits(soilType);
  const soilName = area.settings
    .find((one) => one.key === 'soilType')
    ?.options?.find((option) => option.value === soilType)?.label;
  const [now] = useState(() => Date.now());
  const start = now - 7 * DAY_MS - TOLERANCE_MS;
  const history = useQuery({
    queryKey: ['monitor', 'soilProfile', device.id, start, now],
    queryFn: ({ signal }) => fetchAggregates(device.id, KEYS, start, now, 'hour', ['avg'], signal),
  });

  const profiles = useMemo(() => {
    const series = new Map(
      KEYS.map((key) => [key, aggregatePoints(history.data?.list ?? [], key, 'avg')]),
    );
    return {
      now: SOIL_DEPTHS.map((depth) => numberOf(device, moistureKey(depth))),
      day: profileAt(series, now - DAY_MS, TOLERANCE_MS),
      week: profileAt(series, now - 7 * DAY_MS, TOLERANCE_MS),
    };
  }, [device, history.data, now]);

  const option = useMemo(() => {
    const line = (name: string, profile: readonly (number | undefined)[], style: object) => ({
      name,
      type: 'line',
      symbolSize: 7,
      ...style,
      data: SOIL_DEPTHS.flatMap((depth, index) =>
        profile[index] === undefined ? [] : [[profile[index], depth]],
      ),
    });
    const fc = t('monitor.widget.fieldCapacity', { value: limits.fieldCapacity });
    const wp = t('monitor.widget.wiltingPoint', { value: limits.wiltingPoint });
    const current = line(t('monitor.widget.now'), profiles.now, { lineStyle: { width: 3 } });
    return {
      tooltip: { trigger: 'item', className: 'chart-tooltip' },
      legend: { top: 0 },
      grid: { left: 56, right: 32, top: 40, bottom: 40 },
      xAxis: {
        type: 'value',
        name: '%',
        min: 0,
        max: (extent: { max: number }) =>
          Math.ceil(Math.max(extent.max, limits.fieldCapacity) * 1.15),
      },
      // Depth grows downwards, as in the ground.
      yAxis: {
        type: 'value',
        name: 'cm',
        nameLocation: 'start',
        inverse: true,
        min: 0,
        max: 70,
        interval: 10,
      },
      series: [
        {
          ...current,
          markLine: {
            silent: true,
            symbol: 'none',
            data: [
              referenceLine(fc, STATE_COLOR.waterDeep, { xAxis: limits.fieldCapacity }),
              referenceLine(wp, STATE_COLOR.fault, { xAxis: limits.wiltingPoint }),
            ],
          },
          markArea: {
            silent: true,
            data: [
              [
                {
                  xAxis: limits.wiltingPoint,
                  itemStyle: { color: STATE_COLOR.running, opacity: 0.08 },
                },
                { xAxis: limits.fieldCapacity },
              ],
            ],
          },
        },
        line(t('monitor.widget.dayAgo'), profiles.day, { lineStyle: { type: 'dashed' } }),
        line(t('monitor.widget.weekAgo'), profiles.week, { lineStyle: { type: 'dotted' } }),
      ],
    };
  }, [limits, profiles, t]);

  return (
    <PanelFrame title={t('monitor.widget.soilProfile')} testId="widget-soilProfile">
      <Spin spinning={history.isPending}>
        <div
          data-testid="soil-profile-chart"
          data-field-capacity={limits.fieldCapacity}
          data-wilting-point={limits.wiltingPoint}
          data-now={asText(profiles.now)}
          data-day-ago={asText(profiles.day)}
          data-week-ago={asText(profiles.week)}
        >
          <EChart option={option} height={320} />
        </div>
      </Spin>
      <Typography.Text type="secondary">
        {t('monitor.widget.soilTypeLimits', {
          soil: soilName ? label(soilName) : String(soilType ?? ''),
          fc: limits.fieldCapacity,
          wp: limits.wiltingPoint,
        })}
      </Typography.Text>
    </PanelFrame>
  );
}
