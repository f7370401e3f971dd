import type { Statistics } from '@shuili/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart } from '../../iot/charts/EChart';

/**
 * Each group's totals over the range as bars: money charged and recharged in yuan on the left
 * axis, water in m³ on the right (a cashier draws no water and charges no consumption, a well
 * takes no recharges: those series are left out).
 */
export function StatisticsChart({ statistics }: { statistics: Statistics }) {
  const { t } = useTranslation();
  const option = useMemo(() => {
    const groups = statistics.groups;
    const yuan = (fen: number | null) => (fen === null ? null : fen / 100);
    const hasWater = statistics.groupBy !== 'cashier';
    const hasRecharge = statistics.groupBy !== 'well';
    const series = [
      ...(statistics.groupBy === 'cashier'
        ? []
        : [
            {
              name: t('billingReports.statistics.charged'),
              type: 'bar',
              yAxisIndex: 0,
              data: groups.map((group) => yuan(group.chargedFen)),
            },
          ]),
      ...(hasRecharge
        ? [
            {
              name: t('billingReports.statistics.recharged'),
              type: 'bar',
              yAxisIndex: 0,
              data: groups.map((group) => yuan(group.rechargedFen)),
            },
          ]
        : []),
      ...(hasWater
        ? [
            {
              name: t('billingReports.statistics.water'),
              type: 'line',
              yAxisIndex: 1,
              data: groups.map((group) => group.waterM3),
            },
          ]
        : []),
    ];
    return {
      // Group names are the tenant's villages, wells and users: ECharts' tooltip escapes them.
      tooltip: { trigger: 'axis', className: 'chart-tooltip' },
      legend: { top: 0 },
      grid: { left: 64, right: hasWater ? 64 : 24, top: 40, bottom: 48 },
      xAxis: {
        type: 'category',
        data: groups.map((group) => group.groupName || '—'),
        axisLabel: { interval: 0, rotate: groups.length > 8 ? 30 : 0 },
      },
      yAxis: [
        { type: 'value', name: t('billingReports.yuan'), min: 0 },
        ...(hasWater ? [{ type: 'value', name: 'm³', min: 0, splitLine: { show: false } }] : []),
      ],
      series,
    };
  }, [statistics, t]);
  return <EChart option={option} height={340} testId="statistics-chart" />;
}
