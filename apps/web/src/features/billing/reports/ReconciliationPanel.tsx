import { CheckCircleFilled, WarningFilled } from '@ant-design/icons';
import { BILLING_REPORT_CALLS, type ReconciliationRow } from '@shuili/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  Alert,
  Card,
  Flex,
  Input,
  Result,
  Statistic,
  Switch,
  Table,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LedgerChecksCard } from './LedgerChecksCard';
import { yuanCell } from './money';
import { billingReportApi } from './report-api';
import { ReportExportButtons } from './ReportExportButtons';

/** A household's reasons, each with the amount it accounts for. */
function Reasons({ row }: { row: ReconciliationRow }) {
  const { t } = useTranslation();
  if (row.differenceFen === 0 && row.items.length === 0)
    return <Tag color="success">{t('billingReports.reconciliation.agrees')}</Tag>;
  return (
    <Flex vertical gap={2}>
      {row.items.map((item, index) => (
        <span key={index} data-testid="reconciliation-reason" data-reason={item.reason}>
          {t(`billingReports.reasons.${item.reason}`)}{' '}
          <Typography.Text strong>{yuanCell(item.amountFen)}</Typography.Text>
        </span>
      ))}
      {row.unexplainedFen !== 0 && (
        <Typography.Text type="danger" data-testid="reconciliation-unexplained">
          <WarningFilled /> {t('billingReports.reconciliation.unexplained')}{' '}
          {yuanCell(row.unexplainedFen)}
        </Typography.Text>
      )}
    </Flex>
  );
}

/**
 * The reconciliation: per household and its card, the card's balance (its last written image
 * less what controllers took off it since), the ledger's balance and held amount, and the
 * controllers' charges against the ledger's, side by side; every difference with its reasons,
 * and a clear state when everything agrees. The ledger's own checks beside it.
 */
export function ReconciliationPanel() {
  const { t } = useTranslation();
  const [village, setVillage] = useState('');
  const [onlyDifferences, setOnlyDifferences] = useState(false);
  const params = {
    village: village.trim() || undefined,
    onlyDifferences: onlyDifferences ? 'true' : undefined,
  };
  const result = useQuery({
    queryKey: ['billing-report', 'reconciliation', params],
    queryFn: ({ signal }) => billingReportApi.reconciliation(params, signal),
    placeholderData: keepPreviousData,
  });
  const data = result.data;
  const money = (
    field: keyof ReconciliationRow,
    key:
      | 'cardImage'
      | 'controllerCharged'
      | 'cardBalance'
      | 'ledgerCharged'
      | 'ledgerBalance'
      | 'held'
      | 'difference',
  ) => ({
    title: t(`billingReports.reconciliation.${key}`),
    dataIndex: field,
    align: 'right' as const,
    render: (fen: number) => yuanCell(fen),
  });
  const columns: TableColumnsType<ReconciliationRow> = [
    { title: t('billingReports.group.village'), dataIndex: 'village', width: 110 },
    { title: t('billingReports.reconciliation.household'), dataIndex: 'householdName' },
    {
      title: t('billingReports.reconciliation.card'),
      dataIndex: 'cardNo',
      render: (no: string | null) => no ?? '—',
    },
    money('cardImageFen', 'cardImage'),
    money('controllerChargedFen', 'controllerCharged'),
    money('cardBalanceFen', 'cardBalance'),
    money('ledgerChargedFen', 'ledgerCharged'),
    money('ledgerAvailableFen', 'ledgerBalance'),
    money('ledgerHeldFen', 'held'),
    {
      ...money('differenceFen', 'difference'),
      render: (fen: number) => (
        <Typography.Text type={fen === 0 ? 'success' : 'warning'} strong>
          {yuanCell(fen)}
        </Typography.Text>
      ),
    },
    {
      title: t('billingReports.reconciliation.reasons'),
      key: 'reasons',
      render: (_: unknown, row) => <Reasons row={row} />,
    },
  ];
  const balanced = data && data.withDifference === 0 && data.unexplained === 0;
  return (
    <Flex vertical gap={16}>
      <Card
        title={t('billingReports.reconciliation.title')}
        extra={
          <ReportExportButtons
            url={BILLING_REPORT_CALLS.exportReconciliation}
            params={params}
            testId="reconciliation-export"
          />
        }
      >
        <Flex vertical gap={16}>
          <Flex gap={16} wrap align="center">
            <Input.Search
              allowClear
              placeholder={t('billingReports.group.village')}
              onSearch={setVillage}
              style={{ width: 200 }}
              data-testid="reconciliation-village"
            />
            <Flex gap={8} align="center">
              <Switch
                checked={onlyDifferences}
                onChange={setOnlyDifferences}
                data-testid="reconciliation-only-differences"
              />
              {t('billingReports.reconciliation.onlyDifferences')}
            </Flex>
          </Flex>
          {result.error && <Alert type="warning" showIcon message={result.error.message} />}
          {data && (
            <Flex gap={32} wrap data-testid="reconciliation-summary">
              <Statistic
                title={t('billingReports.reconciliation.households')}
                value={data.households}
              />
              <Statistic
                title={t('billingReports.reconciliation.withDifference')}
                value={data.withDifference}
              />
              <Statistic
                title={t('billingReports.reconciliation.unexplainedCount')}
                value={data.unexplained}
                valueStyle={data.unexplained > 0 ? { color: 'var(--ant-color-error)' } : undefined}
              />
              <Statistic
                title={t('billingReports.reconciliation.cardTotal')}
                value={yuanCell(data.cardTotalFen)}
              />
              <Statistic
                title={t('billingReports.reconciliation.ledgerTotal')}
                value={yuanCell(data.ledgerTotalFen)}
              />
            </Flex>
          )}
          {balanced ? (
            <Result
              status="success"
              icon={<CheckCircleFilled />}
              title={t('billingReports.reconciliation.zeroTitle')}
              subTitle={t('billingReports.reconciliation.zeroText', { count: data.households })}
              data-testid="reconciliation-zero"
            />
          ) : (
            data &&
            data.unexplained === 0 && (
              <Alert
                type="info"
                showIcon
                message={t('billingReports.reconciliation.allExplained')}
                data-testid="reconciliation-explained"
              />
            )
          )}
          <Table<ReconciliationRow>
            rowKey="householdId"
            size="small"
            loading={result.isFetching}
            columns={columns}
            dataSource={data?.rows ?? []}
            pagination={{ pageSize: 20, hideOnSinglePage: true }}
            scroll={{ x: 'max-content' }}
            data-testid="reconciliation-table"
          />
        </Flex>
      </Card>
      <LedgerChecksCard />
    </Flex>
  );
}
