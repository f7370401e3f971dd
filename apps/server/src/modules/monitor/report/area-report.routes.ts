import {
  areaReportExportQuerySchema,
  areaReportQuerySchema,
  areaReportSchema,
  label,
  MONITOR_REPORT_CALLS,
  type Lang,
} from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
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
} from '../../export/export-renderer';
import { areaReportTable } from './area-report-export';
import type { AreaReportService } from './area-report.service';

/** Names of the query fields in validation messages. */
const fieldLabels: Record<string, { label: Record<Lang, string> }> = {
  area: { label: label('Area', '业务', '業務') },
  deviceIds: { label: label('Devices', '设备', '設備') },
  keys: { label: label('Factors', '监测因子', '監測因子') },
  start: { label: label('Start', '开始时间', '開始時間') },
  end: { label: label('End', '结束时间', '結束時間') },
  bucket: { label: label('Interval', '统计周期', '統計週期') },
  format: { label: label('Format', '格式', '格式') },
};
const granted = { permission: 'granted' as const, fieldLabels };
const tags = ['monitor report'];

/** The data report of an area (or across areas) and its export. */
export async function areaReportRoutes(
  fastify: FastifyInstance,
  deps: { reports: AreaReportService },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(MONITOR_REPORT_CALLS.query, {
    config: granted,
    schema: {
      tags,
      summary:
        "Data report: per device and factor its points (raw, or per hour, day, month cut in the tenant's zone) and its minimum, maximum, mean and total",
      querystring: areaReportQuerySchema,
      response: { 200: envelopeOf(areaReportSchema) },
    },
    // The schema documents the answer; checking it value by value would cost more than building
    // it (150 series × 720 hours are 650,000 numbers): the service writes it to the schema's
    // type, and the tests read it back through the schema.
    serializerCompiler: () => (data) => JSON.stringify(data),
    handler: async (request) => ok(await deps.reports.report(authOf(request), request.query)),
  });

  app.post(MONITOR_REPORT_CALLS.export, {
    config: { ...granted, reads: true },
    schema: {
      tags,
      summary: 'The data report as xlsx or csv: statistics first, then every point',
      querystring: areaReportExportQuerySchema,
      produces: [EXPORT_CONTENT_TYPES.xlsx, EXPORT_CONTENT_TYPES.csv],
    },
    handler: async (request, reply) => {
      const report = await deps.reports.report(authOf(request), request.query);
      const points = report.series.reduce((sum, series) => sum + series.at.length, 0);
      if (points > EXPORT_ROW_LIMIT)
        throw new AppError(413, 'export.tooMany', { params: { limit: EXPORT_ROW_LIMIT } });
      const table = areaReportTable(report, request.lang);
      const file = await renderExport(request.query.format, table, { log: request.log });
      return reply
        .header('content-type', EXPORT_CONTENT_TYPES[request.query.format])
        .header(
          'content-disposition',
          contentDisposition(
            exportFileName(
              `report-${request.query.area ?? 'devices'}`,
              request.query.format,
              undefined,
              report.timeZone,
            ),
          ),
        )
        .header('content-length', file.length)
        .send(file);
    },
  });
}
