import {
  BILLING_REPORT_CALLS,
  type BillingReportFormat,
  type CashReport,
  type LedgerChecks,
  type Reconciliation,
  type Revenue,
  type Statistics,
} from '@shuili/contract';
import { http } from '../../../lib/http';
import { downloadFile, saveFile } from '../../../resource/download-file';

/** Query parameters as sent: undefined ones are left out. */
export type ReportParams = Record<string, string | undefined>;

/** The money reports' calls; a failure is the page's to show beside its controls. */
export const billingReportApi = {
  cashReport: (params: ReportParams, signal?: AbortSignal) =>
    http.get<CashReport>(BILLING_REPORT_CALLS.cashReport, { params, signal, silent: true }),
  statistics: (params: ReportParams, signal?: AbortSignal) =>
    http.get<Statistics>(BILLING_REPORT_CALLS.statistics, { params, signal, silent: true }),
  revenue: (params: ReportParams, signal?: AbortSignal) =>
    http.get<Revenue>(BILLING_REPORT_CALLS.revenue, { params, signal, silent: true }),
  reconciliation: (params: ReportParams, signal?: AbortSignal) =>
    http.get<Reconciliation>(BILLING_REPORT_CALLS.reconciliation, {
      params,
      signal,
      silent: true,
    }),
  ledgerChecks: (signal?: AbortSignal) =>
    http.get<LedgerChecks>(BILLING_REPORT_CALLS.ledgerChecks, { signal, silent: true }),
  /** Downloads a report's file and hands it to the browser; answers its name. */
  async download(url: string, params: ReportParams, format: BillingReportFormat) {
    const file = await downloadFile(url, { ...params, format }, () => undefined);
    saveFile(file);
    return file.filename;
  },
};
