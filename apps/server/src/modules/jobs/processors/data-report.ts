import {
  areaOf,
  REPORT_MAX_DEVICES,
  REPORT_MAX_SERIES,
  type AreaDef,
  type AreaReportQuery,
  type Lang,
} from '@shuili/contract';
import type { Sql } from '../../../db/database';
import { EXPORT_CONTENT_TYPES, exportFileName, renderExport } from '../../export/export-renderer';
import type { ExportFormat } from '../../export/export-table';
import { TelemetryQueryService } from '../../iot/telemetry/telemetry-query.service';
import { areaReportTable } from '../../monitor/report/area-report-export';
import { AreaReportService } from '../../monitor/report/area-report.service';
import { instantOf, wallTimeOf } from '../../scheduler/recurrence';
import type { JobProcessor, JobRunContext } from '../job-processor';
import { claimEffect, releaseEffect } from './once';

const MAIL = 'dataReport:mail';
/** The report's language: the e-mail carries both, the sheet one (the district's). */
const SHEET_LANG: Lang = 'zh';

export type ReportPeriod = 'day' | 'week' | 'month';

/**
 * The last whole period before `now` in the zone, and the bucket the report uses: yesterday by
 * hour, the last 7 whole days or the last calendar month by day.
 */
export function lastPeriod(
  period: ReportPeriod,
  now: Date,
  timeZone: string,
): { start: Date; end: Date; bucket: AreaReportQuery['bucket'] } {
  const today = wallTimeOf(now, timeZone);
  const midnight = (year: number, month: number, day: number) => {
    // Date.UTC normalises a day 0 or a month 0 (the month or year before).
    const date = new Date(Date.UTC(year, month - 1, day));
    return instantOf(
      {
        year: date.getUTCFullYear(),
        month: date.getUTCMonth() + 1,
        day: date.getUTCDate(),
        hour: 0,
        minute: 0,
      },
      timeZone,
    );
  };
  const end = midnight(today.year, today.month, today.day);
  if (period === 'day')
    return { start: midnight(today.year, today.month, today.day - 1), end, bucket: 'hour' };
  if (period === 'week')
    return { start: midnight(today.year, today.month, today.day - 7), end, bucket: 'day' };
  return {
    start: midnight(today.year, today.month - 1, 1),
    end: midnight(today.year, today.month, 1),
    bucket: 'day',
  };
}

/**
 * The area's devices and the report factors they have (its report factors first offered),
 * within the report's limits: at most REPORT_MAX_DEVICES devices and REPORT_MAX_SERIES series.
 */
async function reportSelection(
  sql: Sql,
  area: AreaDef,
  queries: TelemetryQueryService,
): Promise<{ deviceIds: string[]; keys: string[]; left: number }> {
  const { rows } = await sql.query<{ id: string }>(
    `SELECT d.id::text FROM iot_device d JOIN iot_product p ON p.id = d.product_id
      WHERE p.device_kind = ANY($1::text[]) ORDER BY d.id`,
    [area.kinds],
  );
  const devices = await queries.devicesOf(
    sql,
    rows.slice(0, REPORT_MAX_DEVICES).map((row) => row.id),
    'deviceIds',
  );
  const numeric = (key: string) =>
    devices.some((device) => {
      const property = device.properties.get(key);
      return property !== undefined && property.type !== 'string';
    });
  const keys = area.reportFactors.filter(numeric);
  // Series are device × factor pairs: keep whole devices within the limit.
  const chosen: string[] = [];
  let series = 0;
  for (const device of devices) {
    const pairs = keys.filter((key) => device.properties.has(key)).length;
    if (pairs === 0) continue;
    if (series + pairs > REPORT_MAX_SERIES) break;
    series += pairs;
    chosen.push(device.id);
  }
  return { deviceIds: chosen, keys, left: rows.length - chosen.length };
}

const SUBJECTS: Record<Lang, (area: string, from: string, to: string) => string> = {
  zh: (area, from, to) => `${area}数据报表 ${from} 至 ${to}`,
  tw: (area, from, to) => `${area}資料報表 ${from} 至 ${to}`,
  en: (area, from, to) => `${area} data report ${from} to ${to}`,
};
const BODIES: Record<Lang, (series: number, file: string) => string> = {
  zh: (series, file) => `附件 ${file} 为本期数据报表（${series} 条数据序列）。`,
  tw: (series, file) => `附件 ${file} 為本期資料報表（${series} 條資料序列）。`,
  en: (series, file) => `The attached ${file} is this period's data report (${series} series).`,
};

/** A day in the zone as the e-mail says it. */
const dayText = (at: Date, timeZone: string) => {
  const wall = wallTimeOf(at, timeZone);
  return `${wall.year}-${String(wall.month).padStart(2, '0')}-${String(wall.day).padStart(2, '0')}`;
};

/**
 * Makes an area's data report for the last period with the report module (the area report and
 * its export writers, as the console's export) and e-mails it as an attachment to the
 * recipients. Once per instance: the mail is claimed before it goes, and the claim is let go
 * when sending fails so a retry sends it.
 */
export const dataReportProcessor: JobProcessor = {
  type: 'dataReport',
  async run(ctx: JobRunContext) {
    const area = areaOf(String(ctx.params.areaCode));
    if (!area) throw new Error(`unknown area ${String(ctx.params.areaCode)}`);
    const format = String(ctx.params.format) as ExportFormat;
    const recipients = ctx.params.recipients as string[];
    const period = lastPeriod(ctx.params.period as ReportPeriod, new Date(), ctx.timeZone);
    const queries = new TelemetryQueryService(ctx.db);
    const reports = new AreaReportService(ctx.db, queries);
    const selection = await ctx.db.tenant(ctx.tenantId, (sql) =>
      reportSelection(sql, area, queries),
    );
    if (selection.deviceIds.length === 0)
      throw new Error(`no device of the area ${area.code} has any of its report factors`);
    if (selection.left > 0)
      await ctx.log(`${selection.left} devices left out (report limits)`, 'warn');
    ctx.signal.throwIfAborted();
    const report = await reports.report({ tenantId: ctx.tenantId }, {
      area: area.code as AreaReportQuery['area'],
      deviceIds: selection.deviceIds.join(','),
      keys: selection.keys.join(','),
      start: period.start.toISOString(),
      end: period.end.toISOString(),
      bucket: period.bucket,
    } as AreaReportQuery);
    await ctx.log(
      `report ${dayText(period.start, ctx.timeZone)} – ${dayText(new Date(period.end.getTime() - 1), ctx.timeZone)}: ${report.series.length} series`,
    );
    ctx.signal.throwIfAborted();
    const file = await renderExport(format, areaReportTable(report, SHEET_LANG), {
      log: ctx.logger,
    });
    const filename = exportFileName(`report-${area.code}`, format, undefined, ctx.timeZone);
    if (!ctx.notifier) throw new Error('no e-mail service on this node');
    const claimed = await ctx.db.tenant(ctx.tenantId, (sql) => claimEffect(sql, ctx, MAIL));
    if (!claimed) {
      await ctx.log('the report of this instance was e-mailed by an earlier run: not sent again');
      return { result: `already e-mailed by an earlier run (${filename})` };
    }
    const from = dayText(period.start, ctx.timeZone);
    const to = dayText(new Date(period.end.getTime() - 1), ctx.timeZone);
    try {
      for (const recipient of recipients)
        await ctx.notifier.send({
          channel: 'email',
          recipient,
          subject: `${SUBJECTS.zh(area.title.zh, from, to)} / ${SUBJECTS.en(area.title.en, from, to)}`,
          body: `${BODIES.zh(report.series.length, filename)}\n${BODIES.en(report.series.length, filename)}`,
          attachments: [{ filename, contentType: EXPORT_CONTENT_TYPES[format], content: file }],
        });
    } catch (error) {
      await releaseEffect(ctx, MAIL);
      throw error;
    }
    await ctx.log(`e-mailed ${filename} (${file.length} bytes) to ${recipients.length} recipients`);
    return {
      result: `${filename}: ${report.series.length} series, e-mailed to ${recipients.length} recipients`,
      context: { reportFile: filename },
    };
  },
};
