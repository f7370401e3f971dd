import type { AreaReport, ReportSeries } from '@shuili/contract';
import { Table, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { seriesId, valueText } from './report-format';
import { useReportLabels } from './report-labels';

/**
 * Each series over the whole range: its readings' minimum, maximum and mean, and its total where
 * the factor has one (a counter's increase across resets, rain added up); blank where none.
 */
export function ReportStats({ report }: { report: AreaReport }) {
  const { t } = useTranslation();
  const names = useReportLabels(report);
  const precision = (key: string) =>
    report.factors.find((factor) => factor.key === key)?.precision ?? null;
  const number = (pick: (series: ReportSeries) => number | null) => ({
    align: 'right' as const,
    render: (_: unknown, series: ReportSeries) => valueText(pick(series), precision(series.key)),
  });
  const columns: TableColumnsType<ReportSeries> = [
    {
      key: 'device',
      title: t('monitor.report.device'),
      render: (_: unknown, series) => names.device(series.deviceId),
    },
    {
      key: 'factor',
      title: t('monitor.report.factor'),
      render: (_: unknown, series) => names.factor(series.key),
    },
    { key: 'min', title: t('monitor.report.min'), ...number((series) => series.stats.min) },
    { key: 'max', title: t('monitor.report.max'), ...number((series) => series.stats.max) },
    { key: 'mean', title: t('monitor.report.mean'), ...number((series) => series.stats.mean) },
    { key: 'total', title: t('monitor.report.total'), ...number((series) => series.stats.total) },
    {
      key: 'count',
      title: t('monitor.report.count'),
      align: 'right',
      render: (_: unknown, series) => series.stats.count,
    },
  ];
  return (
    <Table<ReportSeries>
      rowKey={seriesId}
      size="small"
      columns={columns}
      dataSource={report.series}
      pagination={report.series.length > 10 ? { defaultPageSize: 10 } : false}
      scroll={{ x: 'max-content' }}
      data-testid="report-stats"
      onRow={(series) => ({ 'data-series': seriesId(series) }) as never}
    />
  );
}
