import { useMemo } from 'react';
import { EChart } from '../../iot/charts/EChart';

export interface DailySeries {
  name: string;
  color: string;
  values: ReadonlyMap<string, number>;
  /** Decimals shown in the tooltip. */
  precision: number;
  stack?: string;
}

export interface DailyBarsProps {
  days: readonly string[];
  series: readonly DailySeries[];
  unit: string;
  testId: string;
  height?: number;
}

/** Bars per calendar day, several series side by side (or stacked), days without a value empty. */
export function DailyBars({ days, series, unit, testId, height = 280 }: DailyBarsProps) {
  const option = useMemo(
    () => ({
      tooltip: { trigger: 'axis', className: 'chart-tooltip' },
      legend: { top: 0 },
      grid: { left: 56, right: 24, top: 40, bottom: 32 },
      // Days as the tenant's calendar cuts them, shown as month-day.
      xAxis: { type: 'category', data: days.map((day) => day.slice(5)) },
      yAxis: { type: 'value', name: unit, min: 0 },
      series: series.map((one) => ({
        name: one.name,
        type: 'bar',
        stack: one.stack,
        itemStyle: { color: one.color },
        tooltip: {
          valueFormatter: (value: number | null) =>
            value === null ? '—' : `${value.toFixed(one.precision)} ${unit}`,
        },
        data: days.map((day) => one.values.get(day) ?? null),
      })),
    }),
    [days, series, unit],
  );
  return <EChart option={option} height={height} testId={testId} />;
}
