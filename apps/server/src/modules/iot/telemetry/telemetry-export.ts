import {
  translate,
  type Lang,
  type TelemetryExportQuery,
  type ThingProperty,
} from '@shuili/contract';
import type { Database, TenantScope } from '../../../db/database';
import { AppError } from '../../../http/app-error';
import { EXPORT_ROW_LIMIT } from '../../../entity/entity-exports';
import type { ExportTable, ExportValue } from '../../export/export-renderer';
import { telemetryQueryRepo } from './telemetry-query.repo';
import {
  checkRange,
  fnsOf,
  type QueriedDevice,
  type TelemetryQueryService,
} from './telemetry-query.service';
import { tenantTimeZone } from './telemetry-settings';

/** "2026-03-05 14:03:07" in the tenant's zone: what a person reads in a spreadsheet. */
export function localTime(at: Date, timeZone: string): string {
  const parts: Record<string, string> = {};
  for (const part of new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at))
    parts[part.type] = part.value;
  const hour = parts.hour === '24' ? '00' : parts.hour;
  return `${parts.year}-${parts.month}-${parts.day} ${hour}:${parts.minute}:${parts.second}`;
}

/** A reading as a person reads it: enum and boolean labels, text as is. */
function shownValue(
  property: ThingProperty | undefined,
  value: number | null,
  text: string | null,
  lang: Lang,
): ExportValue {
  if (text !== null) return text;
  if (value === null) return null;
  if (property?.type === 'boolean') return translate(lang, value ? 'common.yes' : 'common.no');
  if (property?.type === 'enum')
    return property.options?.find((option) => option.value === value)?.label[lang] ?? value;
  return value;
}

const deviceLabel = (device: QueriedDevice) =>
  device.deviceName ? `${device.deviceName} (${device.deviceNo})` : device.deviceNo;

/**
 * The export of the data report: every reading (bucket raw) or the aggregates per bucket, of the
 * asked devices and keys, translated, times in the tenant's zone.
 */
export async function telemetryExportTable(
  db: Database,
  queries: TelemetryQueryService,
  scope: TenantScope,
  lang: Lang,
  query: TelemetryExportQuery,
): Promise<ExportTable> {
  const range = checkRange(query.start, query.end, query.bucket);
  const column = (name: string) => translate(lang, `iot.telemetry.column.${name}`);
  return db.tenant(scope, async (sql) => {
    const bucket = query.bucket;
    const raw = bucket === 'raw';
    const { devices, keys } = await queries.series(sql, query.deviceIds, query.keys, !raw);
    const byId = new Map(devices.map((device) => [device.id, device]));
    const timeZone = await tenantTimeZone(sql);
    const ids = devices.map((device) => device.id);
    const base = { title: column('title'), timeZone };
    if (bucket === 'raw') {
      const total = await telemetryQueryRepo.countReadings(sql, ids, keys, range.start, range.end);
      if (total > EXPORT_ROW_LIMIT)
        throw new AppError(413, 'export.tooMany', { params: { limit: EXPORT_ROW_LIMIT } });
      const rows = await telemetryQueryRepo.readings(
        sql,
        ids,
        keys,
        range.start,
        range.end,
        EXPORT_ROW_LIMIT,
        0,
      );
      return {
        ...base,
        columns: ['time', 'device', 'property', 'value', 'unit'].map((key) => ({
          key,
          label: column(key),
        })),
        rows: rows.map((row) => {
          const device = byId.get(row.device_id)!;
          const property = device.properties.get(row.key);
          return {
            time: localTime(row.ts, timeZone),
            device: deviceLabel(device),
            property: property?.name[lang] ?? row.key,
            value: shownValue(property, row.value, row.text_value, lang),
            unit: property?.unit ?? '',
          };
        }),
      };
    }
    const fns = fnsOf(query.fn);
    const rows = await telemetryQueryRepo.aggregate(
      sql,
      ids,
      keys,
      range.start,
      range.end,
      bucket,
      timeZone,
    );
    return {
      ...base,
      columns: ['bucket', 'device', 'property', ...fns, 'unit'].map((key) => ({
        key,
        label: column(key),
      })),
      rows: rows.map((row) => {
        const device = byId.get(row.device_id)!;
        const property = device.properties.get(row.key);
        return {
          bucket: localTime(row.bucket, timeZone),
          device: deviceLabel(device),
          property: property?.name[lang] ?? row.key,
          ...Object.fromEntries(fns.map((fn) => [fn, row[fn]])),
          unit: property?.unit ?? '',
        };
      }),
    };
  });
}
