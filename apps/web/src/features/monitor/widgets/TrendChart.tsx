import { useQuery } from '@tanstack/react-query';
import { Empty, Spin } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart } from '../../iot/charts/EChart';
import { AXIS_GAP, axesOf } from '../../iot/charts/history-series';
import { useUnit } from '../../iot/units';
import { referenceLine } from './chart-extras';
import { HOUR_MS, curveBucket, withLivePoint } from './chart-range';
import { numberOf, propertyOf, timeOf } from './device-values';
import { aggregatePoints, fetchAggregates } from './telemetry-calls';
import { useValueText } from './use-value-text';
import type { AreaDevice } from './widget-types';

/** A horizontal reference on one curve's axis (a dry-run level, a target). */
export interface TrendLine {
  key: string;
  value: number;
  name: string;
  color: string;
}

/** A band on one curve's axis (target ± tolerance). */
export interface TrendBand {
  key: string;
  from: number;
  to: number;
  color: string;
}

export interface TrendChartProps {
  device: AreaDevice;
  keys: readonly string[];
  hours: number;
  lines?: readonly TrendLine[];
  bands?: readonly TrendBand[];
  testId: string;
  height?: number;
}

/**
 * The last hours of some of a device's values as curves, one axis per unit (the device page's
 * rule, history-series axesOf), the live value appended as it arrives, with reference lines
 * and bands on the curves they belong to.
 */
export function TrendChart({
  device,
  keys,
  hours,
  lines = [],
  bands = [],
  testId,
  height = 280,
}: TrendChartProps) {
  const { t } = useTranslation();
  const unitOf = useUnit();
  const { name } = useValueText(device);
  const present = useMemo(() => keys.filter((key) => propertyOf(device, key)), [device, keys]);
  const [end] = useState(() => Date.now());
  const start = end - hours * HOUR_MS;
  const history = useQuery({
    queryKey: ['monitor', 'trend', device.id, present, start, end],
    queryFn: ({ signal }) =>
      fetchAggregates(device.id, present, start, end, curveBucket(hours), ['avg'], signal),
    enabled: present.length > 0,
  });

  const { option, points } = useMemo(() => {
    const { axes, axisOf } = axesOf(
      present.map((key) => {
        const property = propertyOf(device, key)!;
        return { key, type: property.type, unit: property.unit };
      }),
    );
    const side = (position: 'left' | 'right') =>
      axes.filter((axis) => axis.position === position).length;
    const series = present.map((key) => {
      const data = withLivePoint(
        aggregatePoints(history.data?.list ?? [], key, 'avg'),
        numberOf(device, key),
        timeOf(device, key),
        start,
      );
      const unit = unitOf(propertyOf(device, key)?.unit);
      const keyLines = lines.filter((line) => line.key === key);
      const keyBands = bands.filter((band) => band.key === key);
      return {
        name: unit ? `${name(key)} (${unit})` : name(key),
        type: 'line',
        showSymbol: data.length <= 2,
        yAxisIndex: axisOf.get(key) ?? 0,
        data,
        ...(keyLines.length > 0 && {
          markLine: {
            silent: true,
            symbol: 'none',
            data: keyLines.map((line) =>
              referenceLine(line.name, line.color, { yAxis: line.value }),
            ),
          },
        }),
        ...(keyBands.length > 0 && {
          markArea: {
            silent: true,
            data: keyBands.map((band) => [
              { yAxis: band.from, itemStyle: { color: band.color, opacity: 0.12 } },
              { yAxis: band.to },
            ]),
          },
        }),
      };
    });
    const latest = Math.max(end, ...present.map((key) => timeOf(device, key) ?? 0));
    return {
      points: series.reduce((sum, one) => sum + one.data.length, 0),
      option: {
        // Names are the tenant's thing-model labels: ECharts' own tooltip escapes them.
        tooltip: { trigger: 'axis', className: 'chart-tooltip' },
        legend: { top: 0, type: 'scroll' },
        grid: {
          left: 56 + Math.max(0, side('left') - 1) * AXIS_GAP,
          right: side('right') > 0 ? 56 + (side('right') - 1) * AXIS_GAP : 24,
          // Room for the legend above the axes' unit names.
          top: 64,
          bottom: 32,
        },
        xAxis: { type: 'time', min: start, max: latest },
        yAxis: axes.map((axis, index) => {
          // Reference lines stay in sight: an axis fitted to the curves alone would leave a
          // dredging depth or dry-run level far below them off the chart.
          const marks = lines
            .filter((line) => (axisOf.get(line.key) ?? 0) === index)
            .map((line) => line.value);
          return {
            type: 'value',
            scale: true,
            ...(marks.length > 0 && {
              min: (extent: { min: number }) => Math.min(extent.min, ...marks),
              max: (extent: { max: number }) => Math.max(extent.max, ...marks),
            }),
            name: unitOf(axis.unit),
            position: axis.position,
            offset: axis.offset,
            alignTicks: true,
            axisLine: { show: axes.length > 1 },
            splitLine: { show: index === 0 },
          };
        }),
        dataZoom: [{ type: 'inside' }],
        series,
      },
    };
  }, [bands, device, end, history.data, lines, name, present, start, unitOf]);

  if (present.length === 0) return <Empty description={t('monitor.widget.noData')} />;
  return (
    <Spin spinning={history.isPending}>
      <div data-testid={testId} data-points={points} data-lines={lines.length}>
        <EChart option={option} height={height} />
      </div>
    </Spin>
  );
}
