import { CheckCircleFilled, CloseCircleFilled } from '@ant-design/icons';
import type { LedgerCheck } from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, List, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { yuanCell } from './money';
import { billingReportApi } from './report-api';

/**
 * The ledger's own checks over the whole ledger (debits = credits, every transaction balanced,
 * each balance chain equal to its sums, postings numbered without gaps, holds ended once), each
 * passed or failed with the items that break it.
 */
export function LedgerChecksCard() {
  const { t } = useTranslation();
  const checks = useQuery({
    queryKey: ['billing-report', 'ledger-checks'],
    queryFn: ({ signal }) => billingReportApi.ledgerChecks(signal),
  });
  const data = checks.data;
  const allPassed = data?.checks.every((check) => check.passed);
  return (
    <Card
      title={t('billingReports.checks.title')}
      size="small"
      loading={!data && checks.isFetching}
      extra={
        <Button size="small" onClick={() => void checks.refetch()} loading={checks.isFetching}>
          {t('billingReports.checks.run')}
        </Button>
      }
      data-testid="ledger-checks"
      data-passed={allPassed === undefined ? undefined : String(allPassed)}
    >
      {checks.error && <Alert type="warning" showIcon message={checks.error.message} />}
      {data && (
        <>
          <Typography.Paragraph type="secondary">
            {t('billingReports.checks.scope', {
              transactions: data.transactions,
              postings: data.postings,
            })}
          </Typography.Paragraph>
          <List<LedgerCheck>
            size="small"
            dataSource={data.checks}
            renderItem={(check) => (
              <List.Item
                data-testid={`ledger-check-${check.check}`}
                data-passed={String(check.passed)}
              >
                <Space wrap>
                  {check.passed ? (
                    <Tag color="success" icon={<CheckCircleFilled />}>
                      {t('billingReports.checks.passed')}
                    </Tag>
                  ) : (
                    <Tag color="error" icon={<CloseCircleFilled />}>
                      {t('billingReports.checks.failed')}
                    </Tag>
                  )}
                  <span>{t(`billingReports.checks.${check.check}`)}</span>
                  {check.debitsFen !== undefined && (
                    <Typography.Text type="secondary">
                      {t('billingReports.checks.sums', {
                        debits: yuanCell(check.debitsFen),
                        credits: yuanCell(check.creditsFen),
                      })}
                    </Typography.Text>
                  )}
                  {!check.passed && check.samples.length > 0 && (
                    <Typography.Text type="danger">
                      {t('billingReports.checks.breaking', {
                        count: check.failures,
                        ids: check.samples.join(', '),
                      })}
                    </Typography.Text>
                  )}
                </Space>
              </List.Item>
            )}
          />
        </>
      )}
    </Card>
  );
}
