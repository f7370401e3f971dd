import { BILLING_REPORT_CALLS, type CashReportRow } from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, DatePicker, Flex, Select, Table, type TableColumnsType } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { billingReportApi } from './report-api';
import { ReportExportButtons } from './ReportExportButtons';
import { yuanCell } from './money';

/**
 * The daily cash report (spec /skgg/rechargeRecord beside the records): one day's cash in, cash
 * refunded, online top-ups, reversals and net per cashier, to count each drawer against; a
 * cashier may be chosen, and the day printed as pdf.
 */
export function CashReportPanel() {
  const { t } = useTranslation();
  // None chosen: the server's today in the district's zone (the answer says which day).
  const [day, setDay] = useState<string | undefined>();
  const [cashierId, setCashierId] = useState<string | undefined>();
  const params = { day, cashierId };
  const report = useQuery({
    queryKey: ['billing-report', 'cash', day, cashierId],
    queryFn: ({ signal }) => billingReportApi.cashReport(params, signal),
  });
  // The cashiers of the day, to choose from (all of them while none is chosen).
  const all = useQuery({
    queryKey: ['billing-report', 'cash', day, undefined],
    queryFn: ({ signal }) => billingReportApi.cashReport({ day }, signal),
  });
  const shownDay = day ?? report.data?.day;
  const columns: TableColumnsType<CashReportRow> = [
    {
      title: t('billingReports.cash.cashier'),
      dataIndex: 'cashierName',
      render: (name: string) => name || '—',
    },
    ...(
      [
        ['cashInFen', 'cashIn'],
        ['cashRefundedFen', 'cashRefunded'],
        ['onlineFen', 'online'],
        ['reversedFen', 'reversed'],
        ['netCashFen', 'netCash'],
        ['netFen', 'net'],
      ] as const
    ).map(([field, key]) => ({
      title: t(`billingReports.cash.${key}`),
      dataIndex: field,
      align: 'right' as const,
      render: (fen: number) => yuanCell(fen),
    })),
    { title: t('billingReports.cash.count'), dataIndex: 'count', align: 'right' },
  ];
  const data = report.data;
  return (
    <Card
      title={t('billingReports.cash.title')}
      extra={
        <ReportExportButtons
          url={BILLING_REPORT_CALLS.exportCashReport}
          params={{ ...params, day: shownDay }}
          testId="cash-report-export"
        />
      }
      data-testid="cash-report"
    >
      <Flex gap={8} wrap style={{ marginBottom: 12 }}>
        <DatePicker
          value={shownDay ? dayjs(shownDay) : undefined}
          allowClear={false}
          onChange={(value) => value && setDay(value.format('YYYY-MM-DD'))}
          aria-label={t('billingReports.cash.day')}
          data-testid="cash-report-day"
        />
        <Select
          allowClear
          value={cashierId}
          onChange={setCashierId}
          placeholder={t('billingReports.cash.allCashiers')}
          options={(all.data?.rows ?? []).map((row) => ({
            value: row.cashierId,
            label: row.cashierName || '—',
          }))}
          style={{ width: 200 }}
          aria-label={t('billingReports.cash.cashier')}
          data-testid="cash-report-cashier"
        />
      </Flex>
      {report.error && <Alert type="warning" showIcon message={report.error.message} />}
      <Table<CashReportRow>
        rowKey="cashierId"
        size="small"
        loading={report.isFetching}
        columns={columns}
        dataSource={data?.rows ?? []}
        pagination={false}
        locale={{ emptyText: t('billingReports.cash.none') }}
        summary={() =>
          data && data.rows.length > 0 ? (
            <Table.Summary.Row data-testid="cash-report-total">
              <Table.Summary.Cell index={0}>{t('billingReports.total')}</Table.Summary.Cell>
              {(
                [
                  'cashInFen',
                  'cashRefundedFen',
                  'onlineFen',
                  'reversedFen',
                  'netCashFen',
                  'netFen',
                ] as const
              ).map((field, index) => (
                <Table.Summary.Cell key={field} index={index + 1} align="right">
                  {yuanCell(data.total[field])}
                </Table.Summary.Cell>
              ))}
              <Table.Summary.Cell index={7} align="right">
                {data.total.count}
              </Table.Summary.Cell>
            </Table.Summary.Row>
          ) : null
        }
      />
    </Card>
  );
}
