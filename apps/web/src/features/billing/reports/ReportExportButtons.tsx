import { FilePdfOutlined, FileExcelOutlined } from '@ant-design/icons';
import { TOAST_MS, type BillingReportFormat } from '@shuili/contract';
import { Button, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../lib/feedback';
import { billingReportApi, type ReportParams } from './report-api';

/** A report's xlsx and pdf downloads (the server's export module writes them). */
export function ReportExportButtons({
  url,
  params,
  testId,
}: {
  url: string;
  params: ReportParams;
  testId: string;
}) {
  const { t } = useTranslation();
  const [running, setRunning] = useState<BillingReportFormat | undefined>();
  const start = async (format: BillingReportFormat) => {
    setRunning(format);
    try {
      const name = await billingReportApi.download(url, params, format);
      feedback.success(t('billingReports.exported', { name }), TOAST_MS.success / 1000);
    } catch (error) {
      feedback.error(error instanceof Error ? error.message : String(error), TOAST_MS.error / 1000);
    } finally {
      setRunning(undefined);
    }
  };
  return (
    <Space data-testid={testId}>
      <Button
        icon={<FileExcelOutlined />}
        loading={running === 'xlsx'}
        onClick={() => void start('xlsx')}
        data-testid={`${testId}-xlsx`}
      >
        {t('billingReports.exportXlsx')}
      </Button>
      <Button
        icon={<FilePdfOutlined />}
        loading={running === 'pdf'}
        onClick={() => void start('pdf')}
        data-testid={`${testId}-pdf`}
      >
        {t('billingReports.exportPdf')}
      </Button>
    </Space>
  );
}
