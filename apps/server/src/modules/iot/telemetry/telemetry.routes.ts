import {
  ingestStatSchema,
  label,
  TELEMETRY_CALLS,
  telemetryAggregateQuerySchema,
  telemetryAggregateSchema,
  telemetryDeviceQuerySchema,
  telemetryExportQuerySchema,
  telemetryHistoryItemSchema,
  telemetryHistoryQuerySchema,
  telemetryLatestItemSchema,
  type Lang,
} from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../../db/database';
import { envelopeOf, ok, page, pageOf } from '../../../http/envelope';
import { authOf } from '../../../http/request-context';
import {
  contentDisposition,
  EXPORT_CONTENT_TYPES,
  exportFileName,
  renderExport,
} from '../../export/export-renderer';
import { telemetryExportTable } from './telemetry-export';
import type { TelemetryQueryService } from './telemetry-query.service';

/** Names of the query fields in validation messages. */
const fieldLabels: Record<string, { label: Record<Lang, string> }> = {
  deviceId: { label: label('Device', '设备', '設備') },
  deviceIds: { label: label('Devices', '设备', '設備') },
  keys: { label: label('Properties', '属性', '屬性') },
  start: { label: label('Start', '开始时间', '開始時間') },
  end: { label: label('End', '结束时间', '結束時間') },
  bucket: { label: label('Interval', '统计周期', '統計週期') },
  fn: { label: label('Statistics', '统计方式', '統計方式') },
  format: { label: label('Format', '格式', '格式') },
  currentPage: { label: label('Page', '页码', '頁碼') },
  pageSize: { label: label('Page size', '每页条数', '每頁筆數') },
};
const granted = { permission: 'granted' as const, fieldLabels };
const tags = ['iot telemetry'];

/** Telemetry reads of the caller's tenant: latest values, history, aggregates, exports, counters. */
export async function telemetryRoutes(
  fastify: FastifyInstance,
  deps: { db: Database; queries: TelemetryQueryService },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(TELEMETRY_CALLS.latest, {
    config: granted,
    schema: {
      tags,
      summary: "Every property of the device's thing model with its latest value",
      querystring: telemetryDeviceQuerySchema,
      response: { 200: envelopeOf(z.array(telemetryLatestItemSchema)) },
    },
    handler: async (request) =>
      ok(await deps.queries.latest(authOf(request), request.query.deviceId)),
  });

  app.get(TELEMETRY_CALLS.history, {
    config: granted,
    schema: {
      tags,
      summary: 'Readings of a device in a range, newest first, paged',
      querystring: telemetryHistoryQuerySchema,
      response: { 200: pageOf(telemetryHistoryItemSchema) },
    },
    handler: async (request) => {
      const { list, total } = await deps.queries.history(authOf(request), request.query);
      return page(list, total, request.query.currentPage, request.query.pageSize);
    },
  });

  app.get(TELEMETRY_CALLS.aggregate, {
    config: granted,
    schema: {
      tags,
      summary: "Aggregates per time bucket (cut in the tenant's time zone)",
      querystring: telemetryAggregateQuerySchema,
      response: { 200: envelopeOf(telemetryAggregateSchema) },
    },
    handler: async (request) => ok(await deps.queries.aggregate(authOf(request), request.query)),
  });

  app.post(TELEMETRY_CALLS.export, {
    config: { ...granted, reads: true },
    schema: {
      tags,
      summary: 'Readings or aggregates as xlsx or csv',
      querystring: telemetryExportQuerySchema,
      produces: [EXPORT_CONTENT_TYPES.xlsx, EXPORT_CONTENT_TYPES.csv],
    },
    handler: async (request, reply) => {
      const table = await telemetryExportTable(
        deps.db,
        deps.queries,
        authOf(request),
        request.lang,
        request.query,
      );
      const file = await renderExport(request.query.format, table, { log: request.log });
      return reply
        .header('content-type', EXPORT_CONTENT_TYPES[request.query.format])
        .header(
          'content-disposition',
          contentDisposition(
            exportFileName('telemetry', request.query.format, undefined, table.timeZone),
          ),
        )
        .header('content-length', file.length)
        .send(file);
    },
  });

  app.get(TELEMETRY_CALLS.ingestStat, {
    config: granted,
    schema: {
      tags,
      summary: "A device's ingestion counters: accepted and refused values, the last problem",
      querystring: telemetryDeviceQuerySchema,
      response: { 200: envelopeOf(ingestStatSchema) },
    },
    handler: async (request) =>
      ok(await deps.queries.ingestStat(authOf(request), request.query.deviceId)),
  });
}
