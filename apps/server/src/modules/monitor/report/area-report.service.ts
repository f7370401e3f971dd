import {
  areaOf,
  REPORT_MAX_RANGE_DAYS,
  REPORT_MAX_SERIES,
  REPORT_RAW_LIMIT,
  splitList,
  type AreaDef,
  type AreaReport,
  type AreaReportQuery,
  type ReportTotal,
  type ThingProperty,
} from '@shuili/contract';
import type { Database, Sql, TenantScope } from '../../../db/database';
import { telemetryQueryRepo } from '../../iot/telemetry/telemetry-query.repo';
import {
  checkRange,
  fieldError,
  type CheckedRange,
  type QueriedDevice,
  type TelemetryQueryService,
} from '../../iot/telemetry/telemetry-query.service';
import { tenantTimeZone } from '../../iot/telemetry/telemetry-settings';
import { NO_POINTS, seriesOf, statsOf, totalOf, type SeriesPoints } from './report-series';

/** A factor of the report: the first asked device's declaration of it, and its total. */
export interface ReportFactor {
  key: string;
  property: ThingProperty;
  total: ReportTotal;
}

/** What a report is built from, checked: its devices, factors and the pairs that exist. */
export interface ReportPlan {
  area: AreaDef | undefined;
  range: CheckedRange;
  devices: QueriedDevice[];
  factors: ReportFactor[];
  /** Device and factor pairs in the report's order: only where the device has the factor. */
  pairs: Array<{ device: QueriedDevice; factor: ReportFactor }>;
  timeZone: string;
}

const pairKey = (deviceId: string, key: string) => `${deviceId}|${key}`;

/**
 * The data report of an area (or across areas): devices, factors, a range and a bucket; per
 * series its points and its minimum, maximum, mean and total. Built on the telemetry queries
 * (their devices, ranges and the hourly rollup), with a series limit of its own
 * (REPORT_MAX_SERIES: 50 devices × 4 factors) beside the chart's 20.
 */
export class AreaReportService {
  constructor(
    private readonly db: Database,
    private readonly queries: TelemetryQueryService,
  ) {}

  report(scope: TenantScope, query: AreaReportQuery): Promise<AreaReport> {
    return this.db.tenant(scope, async (sql) => {
      const plan = await this.plan(sql, query);
      const series = await this.series(sql, plan, query.bucket);
      return {
        timeZone: plan.timeZone,
        bucket: query.bucket,
        devices: plan.devices.map((device) => ({
          id: device.id,
          deviceNo: device.deviceNo,
          deviceName: device.deviceName,
          deviceKind: device.deviceKind,
        })),
        factors: plan.factors.map(({ key, property, total }) => ({
          key,
          name: property.name,
          type: property.type,
          unit: property.unit ?? null,
          precision: property.precision ?? null,
          total,
        })),
        series,
      };
    });
  }

  /**
   * Checks the query in the caller's transaction: the range, every device visible (404) and of
   * the area (400), every factor a numeric property of some device, the series limit.
   */
  async plan(sql: Sql, query: AreaReportQuery): Promise<ReportPlan> {
    const area = query.area ? areaOf(query.area) : undefined;
    const range = checkRange(
      query.start,
      query.end,
      query.bucket,
      REPORT_MAX_RANGE_DAYS[query.bucket],
    );
    const devices = await this.queries.devicesOf(sql, splitList(query.deviceIds), 'deviceIds');
    if (area) {
      const stranger = devices.find(
        (device) => !area.kinds.some((kind) => kind === device.deviceKind),
      );
      if (stranger)
        throw fieldError(400, 'deviceIds', 'monitor.report.notInArea', {
          device: stranger.deviceName ?? stranger.deviceNo,
        });
    }
    const factors: ReportFactor[] = [];
    const pairs: ReportPlan['pairs'] = [];
    for (const key of splitList(query.keys)) {
      const owners = devices.filter((device) => {
        const property = device.properties.get(key);
        return property !== undefined && property.type !== 'string';
      });
      if (owners.length === 0) throw fieldError(400, 'keys', 'monitor.report.unknownKey', { key });
      const property = owners[0]!.properties.get(key)!;
      const factor = { key, property, total: totalOf(key, property, area) };
      factors.push(factor);
      for (const device of owners) pairs.push({ device, factor });
    }
    if (pairs.length > REPORT_MAX_SERIES)
      throw fieldError(400, 'keys', 'monitor.report.tooManySeries', { max: REPORT_MAX_SERIES });
    // Series in the order asked: devices, then their factors.
    const order = new Map(devices.map((device, index) => [device.id, index]));
    pairs.sort((a, b) => order.get(a.device.id)! - order.get(b.device.id)!);
    return { area, range, devices, factors, pairs, timeZone: await tenantTimeZone(sql) };
  }

  /** Every pair's points and statistics; raw reports at most REPORT_RAW_LIMIT readings. */
  private async series(sql: Sql, plan: ReportPlan, bucket: AreaReportQuery['bucket']) {
    const ids = plan.devices.map((device) => device.id);
    const keys = plan.factors.map((factor) => factor.key);
    const counters = plan.factors
      .filter((factor) => factor.total === 'increase')
      .map((factor) => factor.key);
    const { start, end } = plan.range;
    const aggregate = async (cut: 'hour' | 'day' | 'month') => {
      const rows = await telemetryQueryRepo.reportAggregate(
        sql,
        ids,
        keys,
        counters,
        start,
        end,
        cut,
        plan.timeZone,
      );
      return new Map(rows.map((row) => [pairKey(row.device_id, row.key), row.points]));
    };

    if (bucket !== 'raw') {
      const buckets = await aggregate(bucket);
      return plan.pairs.map(({ device, factor }) => {
        const points = buckets.get(pairKey(device.id, factor.key)) ?? NO_POINTS;
        return seriesOf(device.id, factor.key, points, statsOf(points, factor.total), factor.total);
      });
    }

    const total = await telemetryQueryRepo.countReadings(sql, ids, keys, start, end);
    if (total > REPORT_RAW_LIMIT)
      throw fieldError(400, 'bucket', 'monitor.report.tooManyReadings', {
        count: total,
        max: REPORT_RAW_LIMIT,
      });
    // Newest first from the repo: the report reads forwards.
    const readings = (await telemetryQueryRepo.readings(sql, ids, keys, start, end, total, 0))
      .reverse()
      .filter((row) => row.value !== null);
    const byPair = new Map<string, SeriesPoints>();
    for (const row of readings) {
      const id = pairKey(row.device_id, row.key);
      let points = byPair.get(id);
      if (!points)
        byPair.set(
          id,
          (points = { at: [], avg: [], min: [], max: [], count: [], sum: [], increase: [] }),
        );
      points.at.push(row.ts.getTime());
      points.avg.push(row.value);
      points.min.push(row.value);
      points.max.push(row.value);
      points.count.push(1);
      points.sum.push(row.value);
      points.increase.push(null);
    }
    // Statistics over the whole range from month buckets (a raw range is at most 31 days).
    const months = await aggregate('month');
    return plan.pairs.map(({ device, factor }) => {
      const id = pairKey(device.id, factor.key);
      const stats = statsOf(months.get(id) ?? NO_POINTS, factor.total);
      return seriesOf(device.id, factor.key, byPair.get(id) ?? NO_POINTS, stats, 'none');
    });
  }
}
