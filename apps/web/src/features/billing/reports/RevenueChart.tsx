import type { Revenue } from '@shuili/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart } from '../../iot/charts/EChart';

/** Revenue per period as bars stacked by billing mode and tier (yuan). */
export function RevenueChart({
  revenue,
  modeName,
  tierName,
}: {
  revenue: Revenue;
  modeName: (mode: string) => string;
  tierName: (tier: number) => string;
}) {
  const { t } = useTranslation();
  const option = useMemo(() => {
    const periods = revenue.periods.map((one) => one.period);
    const stacks = new Map<string, Map<string, number>>();
    for (const row of revenue.rows) {
      const name = `${modeName(row.billingMode)} · ${tierName(row.tier)}`;
      const values = stacks.get(name) ?? new Map<string, number>();
      values.set(row.period, (values.get(row.period) ?? 0) + row.amountFen / 100);
      stacks.set(name, values);
    }
    return {
      tooltip: { trigger: 'axis', className: 'chart-tooltip' },
      legend: { type: 'scroll', top: 0 },
      grid: { left: 64, right: 24, top: 40, bottom: 32 },
      xAxis: { type: 'category', data: periods },
      yAxis: { type: 'value', name: t('billingReports.yuan'), min: 0 },
      series: [...stacks].map(([name, values]) => ({
        name,
        type: 'bar',
        stack: 'revenue',
        data: periods.map((period) => values.get(period) ?? null),
      })),
    };
  }, [revenue, modeName, tierName, t]);
  return <EChart option={option} height={320} testId="revenue-chart" />;
}
