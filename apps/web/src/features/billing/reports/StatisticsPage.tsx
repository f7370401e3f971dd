import {
  BILLING_REPORT_CALLS,
  STATISTICS_GROUPS,
  STATISTICS_PERIODS,
  type StatisticsGroup,
  type StatisticsPeriod,
  type StatisticsRow,
} from '@shuili/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Card, Flex, Segmented, Spin, Table, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AreaScreenProps } from '../../monitor/screens/area-screen-props';
import { ReportRangePicker, useReportRange } from './ReportRange';
import { quantityCell, yuanCell } from './money';
import { billingReportApi } from './report-api';
import { ReportExportButtons } from './ReportExportButtons';
import { StatisticsChart } from './StatisticsChart';

/**
 * Spec /skgg/statistics: water, energy and money by village, well or cashier and by day, month
 * or year over a range of days; a chart of the groups' totals and a table per period, exported
 * as xlsx or pdf.
 */
export function StatisticsPage(_props: AreaScreenProps) {
  const { t } = useTranslation();
  const { range, setRange, start, end } = useReportRange();
  const [groupBy, setGroupBy] = useState<StatisticsGroup>('village');
  const [period, setPeriod] = useState<StatisticsPeriod>('month');
  const params = {
    start,
    end,
    groupBy,
    period,
  };
  const statistics = useQuery({
    queryKey: ['billing-report', 'statistics', params],
    queryFn: ({ signal }) => billingReportApi.statistics(params, signal),
    placeholderData: keepPreviousData,
  });
  const data = statistics.data;
  const columns: TableColumnsType<StatisticsRow> = [
    { title: t('billingReports.period'), dataIndex: 'period', width: 110 },
    {
      title: t(`billingReports.group.${groupBy}`),
      dataIndex: 'groupName',
      render: (name: string) => name || '—',
    },
    ...(groupBy === 'cashier'
      ? []
      : [
          {
            title: t('billingReports.statistics.water'),
            dataIndex: 'waterM3',
            align: 'right' as const,
            render: (value: number | null) => quantityCell(value),
          },
          {
            title: t('billingReports.statistics.energy'),
            dataIndex: 'energyKwh',
            align: 'right' as const,
            render: (value: number | null) => quantityCell(value),
          },
          {
            title: t('billingReports.statistics.sessions'),
            dataIndex: 'sessions',
            align: 'right' as const,
          },
        ]),
    // Consumption is charged at wells, never at a cashier's desk.
    ...(groupBy === 'cashier'
      ? []
      : [
          {
            title: t('billingReports.statistics.charged'),
            dataIndex: 'chargedFen',
            align: 'right' as const,
            render: (fen: number | null) => yuanCell(fen),
          },
        ]),
    ...(groupBy === 'well'
      ? []
      : [
          {
            title: t('billingReports.statistics.recharged'),
            dataIndex: 'rechargedFen',
            align: 'right' as const,
            render: (fen: number | null) => yuanCell(fen),
          },
          {
            title: t('billingReports.statistics.refunded'),
            dataIndex: 'refundedFen',
            align: 'right' as const,
            render: (fen: number | null) => yuanCell(fen),
          },
        ]),
  ];
  return (
    <Card
      title={t('billingReports.statistics.title')}
      extra={
        <ReportExportButtons
          url={BILLING_REPORT_CALLS.exportStatistics}
          params={params}
          testId="statistics-export"
        />
      }
    >
      <Flex vertical gap={16}>
        <Flex gap={8} wrap>
          <ReportRangePicker range={range} onChange={setRange} testId="statistics-range" />
          <Segmented<StatisticsGroup>
            value={groupBy}
            onChange={setGroupBy}
            options={STATISTICS_GROUPS.map((value) => ({
              value,
              label: t(`billingReports.group.${value}`),
            }))}
            data-testid="statistics-group"
          />
          <Segmented<StatisticsPeriod>
            value={period}
            onChange={setPeriod}
            options={STATISTICS_PERIODS.map((value) => ({
              value,
              label: t(`billingReports.periods.${value}`),
            }))}
            data-testid="statistics-period"
          />
        </Flex>
        {statistics.error && <Alert type="warning" showIcon message={statistics.error.message} />}
        {!data ? (
          <Spin />
        ) : (
          <Spin spinning={statistics.isFetching}>
            <Flex vertical gap={16}>
              <StatisticsChart statistics={data} />
              <Table<StatisticsRow>
                rowKey={(row) => `${row.period}/${row.groupKey}`}
                size="small"
                columns={columns}
                dataSource={data.rows}
                pagination={{ pageSize: 50, hideOnSinglePage: true }}
                data-testid="statistics-table"
                summary={() => (
                  <Table.Summary.Row data-testid="statistics-total">
                    {columns.map((column, index) => {
                      const field = (column as { dataIndex?: keyof StatisticsRow }).dataIndex;
                      const value = field ? data.total[field] : null;
                      const render = (column as { render?: (v: unknown) => unknown }).render;
                      return (
                        <Table.Summary.Cell key={index} index={index} align={column.align}>
                          {index === 0
                            ? t('billingReports.total')
                            : index === 1
                              ? ''
                              : render
                                ? (render(value) as string)
                                : String(value ?? '')}
                        </Table.Summary.Cell>
                      );
                    })}
                  </Table.Summary.Row>
                )}
              />
            </Flex>
          </Spin>
        )}
      </Flex>
    </Card>
  );
}
