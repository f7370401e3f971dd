import type { AreaReport } from '@shuili/contract';
import { useMemo } from 'react';
import { useUnit } from '../../iot/units';
import { EChart } from '../../iot/charts/EChart';
import { AXIS_GAP, axesOf } from '../../iot/charts/history-series';
import { seriesId, shownValues } from './report-format';
import { useReportLabels } from './report-labels';

/** Series with at most this many points show each point as a dot (a lone reading is no line). */
const SYMBOLS_UP_TO = 60;

/**
 * The report's series over time, one value axis per unit (history-series axesOf): totals of a
 * period (a day's rain, a meter's increase) as bars, means and readings as lines.
 */
export function ReportChart({ report }: { report: AreaReport }) {
  const unitOf = useUnit();
  const names = useReportLabels(report);
  const option = useMemo(() => {
    const factors = new Map(report.factors.map((factor) => [factor.key, factor]));
    const { axes, axisOf } = axesOf(
      report.series.map((series) => {
        const factor = factors.get(series.key);
        return {
          key: seriesId(series),
          type: factor?.type ?? 'number',
          unit: factor?.unit ?? undefined,
        };
      }),
    );
    const side = (position: 'left' | 'right') =>
      axes.filter((axis) => axis.position === position).length;
    return {
      // Names are the tenant's device and thing-model labels: ECharts' own tooltip escapes them.
      tooltip: { trigger: 'axis', className: 'chart-tooltip' },
      legend: { type: 'scroll', top: 0 },
      grid: {
        left: 56 + Math.max(0, side('left') - 1) * AXIS_GAP,
        right: side('right') > 0 ? 56 + (side('right') - 1) * AXIS_GAP : 24,
        top: 48,
        bottom: 72,
      },
      xAxis: { type: 'time' },
      yAxis: (axes.length > 0 ? axes : [{ unit: undefined, position: 'left', offset: 0 }]).map(
        (axis, index) => ({
          type: 'value',
          scale: true,
          name: unitOf(axis.unit),
          position: axis.position,
          offset: axis.offset,
          alignTicks: true,
          axisLine: { show: axes.length > 1 },
          splitLine: { show: index === 0 },
        }),
      ),
      dataZoom: [{ type: 'inside' }, { type: 'slider' }],
      series: report.series.map((series) => {
        const values = shownValues(series);
        const factor = factors.get(series.key);
        const bars = series.total !== undefined;
        return {
          name: names.series(series.deviceId, series.key),
          type: bars ? 'bar' : 'line',
          step:
            !bars && (factor?.type === 'enum' || factor?.type === 'boolean') ? 'end' : undefined,
          showSymbol: series.at.length <= SYMBOLS_UP_TO,
          yAxisIndex: axisOf.get(seriesId(series)) ?? 0,
          data: series.at.map((at, index) => [at, values[index]]),
        };
      }),
    };
  }, [report, names, unitOf]);
  return <EChart option={option} height={420} testId="report-chart" />;
}
