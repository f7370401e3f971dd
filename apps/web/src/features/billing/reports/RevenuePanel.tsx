import {
  BILLING_REPORT_CALLS,
  CONTROLLER_BILLING_MODES,
  type ControllerBillingMode,
  STATISTICS_PERIODS,
  type RevenuePeriod,
  type RevenueRow,
  type StatisticsPeriod,
} from '@shuili/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Card, Flex, Segmented, Spin, Table, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ReportRangePicker, useReportRange } from './ReportRange';
import { quantityCell, yuanCell } from './money';
import { billingReportApi } from './report-api';
import { ReportExportButtons } from './ReportExportButtons';
import { RevenueChart } from './RevenueChart';

/**
 * Revenue by period: the ledger's consumption revenue (posted, reversed, net) and the same money
 * by billing mode and tier from the sessions' tier parts; what the parts do not account for is
 * shown as unallocated.
 */
export function RevenuePanel() {
  const { t } = useTranslation();
  const { range, setRange, start, end } = useReportRange();
  const [period, setPeriod] = useState<StatisticsPeriod>('month');
  const params = {
    start,
    end,
    period,
  };
  const revenue = useQuery({
    queryKey: ['billing-report', 'revenue', params],
    queryFn: ({ signal }) => billingReportApi.revenue(params, signal),
    placeholderData: keepPreviousData,
  });
  const data = revenue.data;
  const modeName = (mode: string): string =>
    t(
      `billingReports.modes.${
        (CONTROLLER_BILLING_MODES as readonly string[]).includes(mode)
          ? (mode as ControllerBillingMode)
          : 'none'
      }`,
    );
  const tierName = (tier: number): string =>
    tier === 0
      ? t('billingReports.tiers.withinQuota')
      : t('billingReports.tiers.tier', { n: tier + 1 });
  const rowColumns: TableColumnsType<RevenueRow> = [
    { title: t('billingReports.period'), dataIndex: 'period', width: 110 },
    { title: t('billingReports.revenue.mode'), dataIndex: 'billingMode', render: modeName },
    { title: t('billingReports.revenue.tier'), dataIndex: 'tier', render: tierName },
    {
      title: t('billingReports.statistics.water'),
      dataIndex: 'waterM3',
      align: 'right',
      render: (v: number) => quantityCell(v),
    },
    {
      title: t('billingReports.statistics.energy'),
      dataIndex: 'energyKwh',
      align: 'right',
      render: (v: number) => quantityCell(v),
    },
    { title: t('billingReports.statistics.sessions'), dataIndex: 'sessions', align: 'right' },
    {
      title: t('billingReports.revenue.amount'),
      dataIndex: 'amountFen',
      align: 'right',
      render: (fen: number) => yuanCell(fen),
    },
  ];
  const periodColumns: TableColumnsType<RevenuePeriod> = [
    { title: t('billingReports.period'), dataIndex: 'period', width: 110 },
    ...(['postedFen', 'reversedFen', 'netFen', 'unallocatedFen'] as const).map((field) => ({
      title: t(`billingReports.revenue.${field}`),
      dataIndex: field,
      align: 'right' as const,
      render: (fen: number) => yuanCell(fen),
    })),
  ];
  return (
    <Card
      title={t('billingReports.revenue.title')}
      extra={
        <ReportExportButtons
          url={BILLING_REPORT_CALLS.exportRevenue}
          params={params}
          testId="revenue-export"
        />
      }
    >
      <Flex vertical gap={16}>
        <Flex gap={8} wrap>
          <ReportRangePicker range={range} onChange={setRange} testId="revenue-range" />
          <Segmented<StatisticsPeriod>
            value={period}
            onChange={setPeriod}
            options={STATISTICS_PERIODS.map((value) => ({
              value,
              label: t(`billingReports.periods.${value}`),
            }))}
            data-testid="revenue-period"
          />
        </Flex>
        {revenue.error && <Alert type="warning" showIcon message={revenue.error.message} />}
        {!data ? (
          <Spin />
        ) : (
          <Spin spinning={revenue.isFetching}>
            <Flex vertical gap={16}>
              <RevenueChart revenue={data} modeName={modeName} tierName={tierName} />
              <Table<RevenuePeriod>
                rowKey="period"
                size="small"
                columns={periodColumns}
                dataSource={data.periods}
                pagination={false}
                data-testid="revenue-periods"
                summary={() => (
                  <Table.Summary.Row data-testid="revenue-total">
                    <Table.Summary.Cell index={0}>{t('billingReports.total')}</Table.Summary.Cell>
                    {(['postedFen', 'reversedFen', 'netFen', 'unallocatedFen'] as const).map(
                      (field, index) => (
                        <Table.Summary.Cell key={field} index={index + 1} align="right">
                          {yuanCell(data.total[field])}
                        </Table.Summary.Cell>
                      ),
                    )}
                  </Table.Summary.Row>
                )}
              />
              <Table<RevenueRow>
                rowKey={(row) => `${row.period}/${row.billingMode}/${row.tier}`}
                size="small"
                columns={rowColumns}
                dataSource={data.rows}
                pagination={{ pageSize: 50, hideOnSinglePage: true }}
                data-testid="revenue-rows"
              />
            </Flex>
          </Spin>
        )}
      </Flex>
    </Card>
  );
}
