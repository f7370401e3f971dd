import { useQuery } from '@tanstack/react-query';
import { Spin, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart } from '../../iot/charts/EChart';
import './chart-extras';
import { HOUR_MS } from './chart-range';
import { COMPASS_POINTS } from './compass';
import { PanelFrame } from './PanelFrame';
import { RangeSwitch } from './RangeSwitch';
import { fetchReadings } from './telemetry-calls';
import { SPEED_LIMITS, WIND_SECTORS, pairWind, windRose } from './wind-rose';
import type { AreaWidgetProps } from './widget-types';

/** Speed classes from light (cool) to strong (warm). */
const CLASS_COLORS = ['#91caff', '#4096ff', '#36cfc9', '#95de64', '#ffc53d', '#ff7a45'];

/**
 * Where the wind came from and how strong, over the last 24 hours or 7 days: 16 sectors, each
 * stacked by Beaufort speed class as shares of all readings; calm counted apart.
 */
export function WindRosePanel({ device }: AreaWidgetProps) {
  const { t } = useTranslation();
  const [hours, setHours] = useState(24);
  const [now] = useState(() => Date.now());
  const start = now - hours * HOUR_MS;
  const readings = useQuery({
    queryKey: ['monitor', 'windRose', device.id, start, now],
    queryFn: ({ signal }) =>
      fetchReadings(device.id, ['windDirection', 'windSpeed'], start, now, signal),
  });
  const rose = useMemo(() => windRose(pairWind(readings.data ?? [])), [readings.data]);

  const option = useMemo(() => {
    const classNames = [
      ...SPEED_LIMITS.map((limit, index) =>
        index === 0
          ? t('monitor.widget.speedBelow', { limit })
          : t('monitor.widget.speedBetween', { from: SPEED_LIMITS[index - 1], to: limit }),
      ),
      t('monitor.widget.speedAbove', { limit: SPEED_LIMITS[SPEED_LIMITS.length - 1] }),
    ];
    return {
      tooltip: {
        trigger: 'item',
        className: 'chart-tooltip',
        valueFormatter: (value: number) => `${value.toFixed(1)} %`,
      },
      legend: { top: 0, type: 'scroll' },
      // Category sectors are drawn between ticks: turning by half a sector centres N at the top.
      angleAxis: {
        type: 'category',
        data: COMPASS_POINTS.map((point) => t(`monitor.widget.compass.${point}`)),
        startAngle: 90 + 180 / WIND_SECTORS,
        boundaryGap: true,
        axisTick: { show: false },
      },
      radiusAxis: { type: 'value', axisLabel: { formatter: '{value} %' }, z: 10 },
      polar: { center: ['50%', '55%'], radius: '72%' },
      series: rose.percent.map((shares, index) => ({
        name: classNames[index],
        type: 'bar',
        coordinateSystem: 'polar',
        stack: 'rose',
        itemStyle: { color: CLASS_COLORS[index % CLASS_COLORS.length] },
        data: shares.map((share) => Number(share.toFixed(2))),
      })),
    };
  }, [rose, t]);

  return (
    <PanelFrame
      title={t('monitor.widget.windRose')}
      testId="widget-windRose"
      extra={<RangeSwitch hours={[24, 168]} value={hours} onChange={setHours} />}
    >
      <Spin spinning={readings.isFetching}>
        <div
          data-testid="wind-rose-chart"
          data-samples={readings.isSuccess ? rose.total : ''}
          data-prevailing={rose.prevailing === undefined ? '' : COMPASS_POINTS[rose.prevailing]}
        >
          <EChart option={option} height={340} />
        </div>
      </Spin>
      <Typography.Text type="secondary">
        {rose.total === 0
          ? t('monitor.widget.noData')
          : t('monitor.widget.roseSummary', {
              samples: rose.total,
              calm: rose.calmPercent.toFixed(1),
              point:
                rose.prevailing === undefined
                  ? '—'
                  : t(`monitor.widget.compass.${COMPASS_POINTS[rose.prevailing]!}`),
            })}
      </Typography.Text>
    </PanelFrame>
  );
}
