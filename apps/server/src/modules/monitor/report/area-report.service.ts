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
import { derivedFactorOf, type DerivedFactor } from './derived-factors';
import { NO_POINTS, seriesOf, statsOf, totalOf, type SeriesPoints } from './report-series';

/** A factor of the report: the first asked device's declaration of it, and its total. */
export interface ReportFactor {
  key: string;
  property: ThingProperty;
  total: ReportTotal;
  /** Computed by the server from stored readings (AreaDef.derivedFactors), not stored. */
  derived?: DerivedFactor;
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
      const derived = derivedFactorOf(area, key);
      const owners = devices.filter((device) => {
        if (derived)
          return (
            derived.kinds.includes(device.deviceKind ?? '') &&
            derived.inputs.every((input) => device.properties.has(input))
          );
        const property = device.properties.get(key);
        return property !== undefined && property.type !== 'string';
      });
      if (owners.length === 0) throw fieldError(400, 'keys', 'monitor.report.unknownKey', { key });
      const factor: ReportFactor = derived
        ? { key, property: derived.property, total: null, derived }
        : {
            key,
            property: owners[0]!.properties.get(key)!,
            total: totalOf(key, owners[0]!.properties.get(key)!, area),
          };
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
    const keys = plan.factors.filter((factor) => !factor.derived).map((factor) => factor.key);
    const derived = await this.derivedPoints(sql, plan, bucket);
    const counters = plan.factors
      .filter((factor) => factor.total === 'increase')
      .map((factor) => factor.key);
    const { start, end } = plan.range;
    const aggregate = async (cut: 'hour' | 'day' | 'month') => {
      if (keys.length === 0) return new Map<string, SeriesPoints>();
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
        const id = pairKey(device.id, factor.key);
        const points = (factor.derived ? derived.get(id) : buckets.get(id)) ?? NO_POINTS;
        return seriesOf(device.id, factor.key, points, statsOf(points, factor.total), factor.total);
      });
    }

    let total = keys.length
      ? await telemetryQueryRepo.countReadings(sql, ids, keys, start, end)
      : 0;
    for (const points of derived.values()) total += points.at.length;
    if (total > REPORT_RAW_LIMIT)
      throw fieldError(400, 'bucket', 'monitor.report.tooManyReadings', {
        count: total,
        max: REPORT_RAW_LIMIT,
      });
    // Newest first from the repo: the report reads forwards.
    const readings = (
      keys.length ? await telemetryQueryRepo.readings(sql, ids, keys, start, end, total, 0) : []
    )
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
      // A derived factor's raw points are the whole range already: its statistics are theirs.
      if (factor.derived) {
        const points = derived.get(id) ?? NO_POINTS;
        return seriesOf(device.id, factor.key, points, statsOf(points, null), 'none');
      }
      const stats = statsOf(months.get(id) ?? NO_POINTS, factor.total);
      return seriesOf(device.id, factor.key, byPair.get(id) ?? NO_POINTS, stats, 'none');
    });
  }

  /** The derived factors' points by device and key, each computed by its area's rule. */
  private async derivedPoints(
    sql: Sql,
    plan: ReportPlan,
    bucket: AreaReportQuery['bucket'],
  ): Promise<Map<string, SeriesPoints>> {
    const out = new Map<string, SeriesPoints>();
    for (const factor of plan.factors) {
      if (!factor.derived) continue;
      const ids = plan.pairs.filter((pair) => pair.factor === factor).map((pair) => pair.device.id);
      const points = await factor.derived.source(
        sql,
        ids,
        plan.range.start,
        plan.range.end,
        bucket,
        plan.timeZone,
      );
      for (const [deviceId, one] of points) out.set(pairKey(deviceId, factor.key), one);
    }
    return out;
  }
}
