import {
  BILLING_REPORT_CALLS,
  cashReportExportQuerySchema,
  cashReportQuerySchema,
  cashReportSchema,
  label,
  ledgerChecksSchema,
  reconciliationExportQuerySchema,
  reconciliationQuerySchema,
  reconciliationSchema,
  revenueExportQuerySchema,
  revenueQuerySchema,
  revenueSchema,
  statisticsExportQuerySchema,
  statisticsQuerySchema,
  statisticsSchema,
  type BillingReportFormat,
  type Lang,
} from '@shuili/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EXPORT_ROW_LIMIT } from '../../../entity/entity-exports';
import { AppError } from '../../../http/app-error';
import { envelopeOf, ok } from '../../../http/envelope';
import { authOf } from '../../../http/request-context';
import {
  contentDisposition,
  EXPORT_CONTENT_TYPES,
  exportFileName,
  renderExport,
  type ExportTable,
} from '../../export/export-renderer';
import type { CashReportService } from './cash-report.service';
import type { LedgerChecksService } from './ledger-checks.service';
import type { ReconciliationService } from './reconciliation.service';
import {
  cashReportTable,
  reconciliationTable,
  revenueTable,
  statisticsTable,
} from './report-export';
import type { RevenueService } from './revenue.service';
import type { StatisticsService } from './statistics.service';

/** Names of the query fields in validation messages. */
const fieldLabels: Record<string, { label: Record<Lang, string> }> = {
  day: { label: label('Day', '日期', '日期') },
  cashierId: { label: label('Cashier', '收费员', '收費員') },
  start: { label: label('Start', '开始日期', '開始日期') },
  end: { label: label('End', '结束日期', '結束日期') },
  groupBy: { label: label('Group by', '统计维度', '統計維度') },
  period: { label: label('Period', '统计周期', '統計週期') },
  village: { label: label('Village', '村庄', '村莊') },
  householdId: { label: label('Household', '用卡户', '用卡戶') },
  onlyDifferences: { label: label('Only differences', '仅显示差异', '僅顯示差異') },
  format: { label: label('Format', '格式', '格式') },
};
const granted = { permission: 'granted' as const, fieldLabels };
const tags = ['billing reports'];
const FILE_TYPES = [EXPORT_CONTENT_TYPES.xlsx, EXPORT_CONTENT_TYPES.pdf];

/** Sends a report's table as a file of the asked format. */
async function sendFile(
  request: FastifyRequest,
  reply: FastifyReply,
  format: BillingReportFormat,
  baseName: string,
  file: ExportTable,
) {
  if (file.rows.length > EXPORT_ROW_LIMIT)
    throw new AppError(413, 'export.tooMany', { params: { limit: EXPORT_ROW_LIMIT } });
  const body = await renderExport(format, file, { log: request.log });
  return reply
    .header('content-type', EXPORT_CONTENT_TYPES[format])
    .header(
      'content-disposition',
      contentDisposition(exportFileName(baseName, format, undefined, file.timeZone)),
    )
    .header('content-length', body.length)
    .send(body);
}

/** The money reports of card-swipe billing and their xlsx / pdf files. */
export async function billingReportRoutes(
  fastify: FastifyInstance,
  deps: {
    cash: CashReportService;
    statistics: StatisticsService;
    revenue: RevenueService;
    reconciliation: ReconciliationService;
    checks: LedgerChecksService;
  },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(BILLING_REPORT_CALLS.cashReport, {
    config: granted,
    schema: {
      tags,
      summary: "Daily cash report: a day's recharges, refunds and reversals per cashier",
      querystring: cashReportQuerySchema,
      response: { 200: envelopeOf(cashReportSchema) },
    },
    handler: async (request) => ok(await deps.cash.report(authOf(request), request.query)),
  });
  app.post(BILLING_REPORT_CALLS.exportCashReport, {
    config: { ...granted, reads: true },
    schema: {
      tags,
      summary: 'The daily cash report as xlsx or pdf (printable)',
      querystring: cashReportExportQuerySchema,
      produces: FILE_TYPES,
    },
    handler: async (request, reply) => {
      const report = await deps.cash.report(authOf(request), request.query);
      return sendFile(
        request,
        reply,
        request.query.format,
        `cash-report-${report.day}`,
        cashReportTable(report, request.lang),
      );
    },
  });

  app.get(BILLING_REPORT_CALLS.statistics, {
    config: granted,
    schema: {
      tags,
      summary: 'Water, energy and money by village, well or cashier and by day, month or year',
      querystring: statisticsQuerySchema,
      response: { 200: envelopeOf(statisticsSchema) },
    },
    handler: async (request) =>
      ok(await deps.statistics.statistics(authOf(request), request.query)),
  });
  app.post(BILLING_REPORT_CALLS.exportStatistics, {
    config: { ...granted, reads: true },
    schema: {
      tags,
      summary: 'Statistics as xlsx or pdf',
      querystring: statisticsExportQuerySchema,
      produces: FILE_TYPES,
    },
    handler: async (request, reply) => {
      const { format, ...query } = request.query;
      const statistics = await deps.statistics.statistics(authOf(request), query);
      const range = `${query.start} ~ ${query.end}`;
      return sendFile(
        request,
        reply,
        format,
        `statistics-${query.groupBy}`,
        statisticsTable(statistics, request.lang, range),
      );
    },
  });

  app.get(BILLING_REPORT_CALLS.revenue, {
    config: granted,
    schema: {
      tags,
      summary: 'Revenue of consumption by period, billing mode and tier, against the ledger',
      querystring: revenueQuerySchema,
      response: { 200: envelopeOf(revenueSchema) },
    },
    handler: async (request) => ok(await deps.revenue.revenue(authOf(request), request.query)),
  });
  app.post(BILLING_REPORT_CALLS.exportRevenue, {
    config: { ...granted, reads: true },
    schema: {
      tags,
      summary: 'Revenue as xlsx or pdf',
      querystring: revenueExportQuerySchema,
      produces: FILE_TYPES,
    },
    handler: async (request, reply) => {
      const { format, ...query } = request.query;
      const revenue = await deps.revenue.revenue(authOf(request), query);
      return sendFile(
        request,
        reply,
        format,
        'revenue',
        revenueTable(revenue, request.lang, `${query.start} ~ ${query.end}`),
      );
    },
  });

  app.get(BILLING_REPORT_CALLS.reconciliation, {
    config: granted,
    schema: {
      tags,
      summary:
        "Reconciliation: each household's card balance, ledger balance and controller records side by side, every difference with its reason",
      querystring: reconciliationQuerySchema,
      response: { 200: envelopeOf(reconciliationSchema) },
    },
    handler: async (request) =>
      ok(await deps.reconciliation.reconcile(authOf(request), request.query)),
  });
  app.post(BILLING_REPORT_CALLS.exportReconciliation, {
    config: { ...granted, reads: true },
    schema: {
      tags,
      summary: 'The reconciliation as xlsx or pdf',
      querystring: reconciliationExportQuerySchema,
      produces: FILE_TYPES,
    },
    handler: async (request, reply) => {
      const { format, ...query } = request.query;
      const result = await deps.reconciliation.reconcile(authOf(request), query);
      return sendFile(
        request,
        reply,
        format,
        'reconciliation',
        reconciliationTable(result, request.lang),
      );
    },
  });

  app.get(BILLING_REPORT_CALLS.ledgerChecks, {
    config: granted,
    schema: {
      tags,
      summary: "The ledger's invariants over the whole ledger, each passed or failed",
      response: { 200: envelopeOf(ledgerChecksSchema) },
    },
    handler: async (request) => ok(await deps.checks.checks(authOf(request))),
  });
}
