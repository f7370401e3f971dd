import {
  instantOf,
  splitList,
  TELEMETRY_FNS,
  TELEMETRY_MAX_RANGE_DAYS,
  TELEMETRY_MAX_SERIES,
  type IngestStat,
  type TelemetryAggregateItem,
  type TelemetryAggregateQuery,
  type TelemetryBucket,
  type TelemetryFn,
  type TelemetryHistoryItem,
  type TelemetryHistoryQuery,
  type TelemetryLatestItem,
  type ThingModel,
  type ThingProperty,
} from '@shuili/contract';
import type { Database, Sql, TenantScope } from '../../../db/database';
import { AppError } from '../../../http/app-error';
import { thingModelOf } from '../device/device-directory';
import { telemetryQueryRepo, type ReadingRow } from './telemetry-query.repo';
import { tenantTimeZone } from './telemetry-settings';

const DAY_MS = 24 * 60 * 60 * 1000;

export const fieldError = (
  status: number,
  field: string,
  key: string,
  params?: Record<string, string | number>,
) => new AppError(status, key, { params, fields: [{ field, key, params }] });

export interface QueriedDevice {
  id: string;
  deviceNo: string;
  deviceName: string | null;
  /** The product's kind (areas cover kinds). */
  deviceKind: string | null;
  thingModel: ThingModel;
  properties: Map<string, ThingProperty>;
}

export interface CheckedRange {
  start: Date;
  end: Date;
}

/** start <= end and no longer than the limit of the kind of query (or the caller's own). */
export function checkRange(
  start: string,
  end: string,
  kind: 'raw' | TelemetryBucket,
  days = TELEMETRY_MAX_RANGE_DAYS[kind],
): CheckedRange {
  const from = instantOf(start);
  const to = instantOf(end);
  if (to.getTime() < from.getTime()) throw fieldError(400, 'end', 'validation.endBeforeStart');
  if (to.getTime() - from.getTime() > days * DAY_MS)
    throw fieldError(400, 'end', 'iot.telemetry.rangeTooLong', { days });
  return { start: from, end: to };
}

export function fnsOf(text: string | undefined): TelemetryFn[] {
  const asked = splitList(text);
  return asked.length === 0 ? [...TELEMETRY_FNS] : (asked as TelemetryFn[]);
}

/** History, aggregates, latest values and counters of a tenant's devices (its own only: RLS). */
export class TelemetryQueryService {
  constructor(private readonly db: Database) {}

  /** Loads the devices (404 naming the field when one is not the tenant's). */
  async devicesOf(sql: Sql, deviceIds: string[], field: string): Promise<QueriedDevice[]> {
    const rows = await telemetryQueryRepo.devices(sql, deviceIds);
    const byId = new Map(rows.map((row) => [row.id, row]));
    return deviceIds.map((id) => {
      const row = byId.get(id);
      if (!row) throw fieldError(404, field, 'iot.deviceNotFound');
      const thingModel = thingModelOf(row.thing_model);
      return {
        id,
        deviceNo: row.device_no,
        deviceName: row.device_name,
        deviceKind: row.device_kind,
        thingModel,
        properties: new Map(thingModel.properties.map((property) => [property.key, property])),
      };
    });
  }

  /** The keys asked (all properties when none), each a property of every device. */
  checkKeys(devices: QueriedDevice[], keysText: string | undefined, numericOnly = false): string[] {
    const asked = splitList(keysText);
    const keys =
      asked.length > 0 ? asked : devices[0]!.thingModel.properties.map((property) => property.key);
    for (const key of keys) {
      for (const device of devices) {
        const property = device.properties.get(key);
        if (!property) throw fieldError(400, 'keys', 'iot.telemetry.unknownKey', { key });
        if (numericOnly && property.type === 'string')
          throw fieldError(400, 'keys', 'iot.telemetry.notNumeric', { key });
      }
    }
    return keys;
  }

  latest(scope: TenantScope, deviceId: string): Promise<TelemetryLatestItem[]> {
    return this.db.tenant(scope, async (sql) => {
      const [device] = await this.devicesOf(sql, [deviceId], 'deviceId');
      const latest = new Map(
        (await telemetryQueryRepo.latest(sql, deviceId)).map((row) => [row.key, row]),
      );
      return device!.thingModel.properties.map((property) => {
        const row = latest.get(property.key);
        return {
          key: property.key,
          name: property.name,
          type: property.type,
          unit: property.unit ?? null,
          precision: property.precision ?? null,
          options: property.options ?? null,
          value: row?.value ?? null,
          textValue: row?.text_value ?? null,
          ts: row ? row.ts.toISOString() : null,
        };
      });
    });
  }

  history(
    scope: TenantScope,
    query: TelemetryHistoryQuery,
  ): Promise<{ list: TelemetryHistoryItem[]; total: number }> {
    const range = checkRange(query.start, query.end, 'raw');
    return this.db.tenant(scope, async (sql) => {
      const devices = await this.devicesOf(sql, [query.deviceId], 'deviceId');
      const keys = this.checkKeys(devices, query.keys);
      const total = await telemetryQueryRepo.countReadings(
        sql,
        [query.deviceId],
        keys,
        range.start,
        range.end,
      );
      const rows = await telemetryQueryRepo.readings(
        sql,
        [query.deviceId],
        keys,
        range.start,
        range.end,
        query.pageSize,
        (query.currentPage - 1) * query.pageSize,
      );
      return { list: rows.map(historyItem), total };
    });
  }

  async aggregate(
    scope: TenantScope,
    query: TelemetryAggregateQuery,
  ): Promise<{ timeZone: string; list: TelemetryAggregateItem[] }> {
    const range = checkRange(query.start, query.end, query.bucket);
    const fns = fnsOf(query.fn);
    return this.db.tenant(scope, async (sql) => {
      const { devices, keys } = await this.series(sql, query.deviceIds, query.keys);
      const timeZone = await tenantTimeZone(sql);
      const rows = await telemetryQueryRepo.aggregate(
        sql,
        devices.map((device) => device.id),
        keys,
        range.start,
        range.end,
        query.bucket,
        timeZone,
      );
      return {
        timeZone,
        list: rows.map((row) => {
          const item: TelemetryAggregateItem = {
            deviceId: row.device_id,
            key: row.key,
            bucket: row.bucket.toISOString(),
          };
          for (const fn of fns) (item as Record<string, unknown>)[fn] = row[fn];
          return item;
        }),
      };
    });
  }

  /** Devices and numeric keys of an aggregate or export, within the series limit. */
  async series(sql: Sql, deviceIdsText: string, keysText: string, numericOnly = true) {
    const deviceIds = splitList(deviceIdsText);
    const keyCount = splitList(keysText).length;
    if (deviceIds.length * keyCount > TELEMETRY_MAX_SERIES)
      throw fieldError(400, 'keys', 'iot.telemetry.tooManySeries', { max: TELEMETRY_MAX_SERIES });
    const devices = await this.devicesOf(sql, deviceIds, 'deviceIds');
    return { devices, keys: this.checkKeys(devices, keysText, numericOnly) };
  }

  ingestStat(scope: TenantScope, deviceId: string): Promise<IngestStat> {
    return this.db.tenant(scope, async (sql) => {
      await this.devicesOf(sql, [deviceId], 'deviceId');
      const row = await telemetryQueryRepo.stat(sql, deviceId);
      return {
        deviceId,
        accepted: Number(row?.accepted ?? 0),
        unknownKeys: Number(row?.unknown_keys ?? 0),
        wrongType: Number(row?.wrong_type ?? 0),
        outOfRange: Number(row?.out_of_range ?? 0),
        badPayload: Number(row?.bad_payload ?? 0),
        badTime: Number(row?.bad_time ?? 0),
        lastProblem: row?.last_problem ?? null,
        lastProblemAt: row?.last_problem_at?.toISOString() ?? null,
        lastAcceptedAt: row?.last_accepted_at?.toISOString() ?? null,
      };
    });
  }
}

function historyItem(row: ReadingRow): TelemetryHistoryItem {
  return { key: row.key, ts: row.ts.toISOString(), value: row.value, textValue: row.text_value };
}
