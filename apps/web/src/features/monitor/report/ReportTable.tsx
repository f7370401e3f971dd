import type { AreaReport } from '@shuili/contract';
import { Table, type TableColumnsType } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { bucketText, pointRows, seriesId, valueText } from './report-format';
import { useReportLabels } from './report-labels';

type Row = ReturnType<typeof pointRows>[number];

/**
 * The chart's values as a table: a row per bucket (or reading) in the tenant's zone, a column
 * per device and factor (its bucket total where the factor totals, else its mean).
 */
export function ReportTable({ report }: { report: AreaReport }) {
  const { t } = useTranslation();
  const names = useReportLabels(report);
  const rows = useMemo(() => pointRows(report), [report]);
  const precision = useMemo(
    () => new Map(report.factors.map((factor) => [factor.key, factor.precision])),
    [report],
  );
  const columns: TableColumnsType<Row> = [
    {
      key: 'at',
      title: t('monitor.report.time'),
      fixed: 'left',
      width: report.bucket === 'raw' ? 170 : 140,
      render: (_: unknown, row: Row) => bucketText(row.at, report.bucket, report.timeZone),
    },
    ...report.series.map((series) => {
      const id = seriesId(series);
      return {
        key: id,
        title: names.series(series.deviceId, series.key),
        align: 'right' as const,
        width: 140,
        render: (_: unknown, row: Row) =>
          valueText(row.values[id], precision.get(series.key) ?? null),
      };
    }),
  ];
  return (
    <Table<Row>
      rowKey="at"
      size="small"
      columns={columns}
      dataSource={rows}
      scroll={{ x: 'max-content' }}
      pagination={{ defaultPageSize: 24, showSizeChanger: true, pageSizeOptions: [24, 48, 96] }}
      data-testid="report-table"
    />
  );
}
