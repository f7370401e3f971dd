import {
  DEFAULT_DICTS,
  floodMonitorArea,
  rainThresholdProblems,
  type FloodStationStatus,
  type FloodThreshold,
  type FloodThresholdQuery,
  type Lang,
  type UpdateFloodThresholdInput,
} from '@shuili/contract';
import type { Database, Sql } from '../../../db/database';
import { AppError, forbidden } from '../../../http/app-error';
import type { AuthContext } from '../../../http/request-context';
import { areaSettingRepo } from '../settings/area-setting.repo';
import { floodStatusAt, thresholdsOf } from './flood-status';
import { floodThresholdRepo } from './flood-threshold.repo';

const levelName = (level: string, lang: Lang) =>
  DEFAULT_DICTS.find((entry) => entry.dictType === 'alarm_level' && entry.dictValue === level)
    ?.label[lang] ?? level;

const deviceProblem = (status: number, key: string, params?: Record<string, string>) =>
  new AppError(status, key, { params, fields: [{ field: 'deviceId', key, params }] });

/** The flood area's calls: stations now, and the rainstorm thresholds (migration 018). */
export class FloodService {
  constructor(private readonly db: Database) {}

  /** The asked stations the caller sees (others, and devices of other kinds, left out). */
  status(auth: AuthContext, deviceIds: string[]): Promise<FloodStationStatus[]> {
    return this.db.tenant(auth, async (sql) => {
      const { rows } = await sql.query<{ id: string }>(
        `SELECT d.id::text FROM iot_device d JOIN iot_product p ON p.id = d.product_id
          WHERE d.id = ANY($1::bigint[]) AND p.device_kind = ANY($2::text[]) ORDER BY d.id`,
        [[...new Set(deviceIds)], floodMonitorArea.kinds],
      );
      return floodStatusAt(
        sql,
        rows.map((row) => row.id),
        new Date(),
      );
    });
  }

  /** A station's thresholds (its own or what it inherits), or the tenant's default. */
  threshold(auth: AuthContext, lang: Lang, query: FloodThresholdQuery): Promise<FloodThreshold> {
    return this.db.tenant(auth, async (sql) => {
      const stationId = query.deviceId ?? null;
      if (stationId) await this.checkStation(sql, stationId, lang);
      return this.read(sql, stationId);
    });
  }

  /**
   * Stores a station's thresholds or the tenant's default (null removes them), checked first
   * (400 naming each `thresholds.<level>.h<n>`). The default applies to stations the caller may
   * not see: only a caller confined to no zone or project may change it.
   */
  update(auth: AuthContext, lang: Lang, input: UpdateFloodThresholdInput): Promise<FloodThreshold> {
    if (input.thresholds) {
      const problems = rainThresholdProblems(input.thresholds);
      if (problems.length)
        throw new AppError(400, 'validation.invalid', {
          fields: problems.map((problem) => ({
            ...problem,
            params: {
              ...problem.params,
              ...(problem.params.level
                ? { level: levelName(String(problem.params.level), lang) }
                : {}),
              ...(problem.params.lower
                ? { lower: levelName(String(problem.params.lower), lang) }
                : {}),
            },
          })),
        });
    }
    const stationId = input.deviceId ?? null;
    if (stationId === null && (auth.zoneIds !== null || auth.projectIds !== null))
      throw forbidden('monitor.floodDefaultZoned');
    return this.db.tenant(auth, async (sql) => {
      if (stationId) await this.checkStation(sql, stationId, lang);
      if (input.thresholds)
        await floodThresholdRepo.put(sql, {
          tenantId: auth.tenantId,
          stationId,
          thresholds: input.thresholds,
          by: auth.username,
        });
      else await floodThresholdRepo.remove(sql, stationId);
      return this.read(sql, stationId);
    });
  }

  private async read(sql: Sql, stationId: string | null): Promise<FloodThreshold> {
    const rows = await floodThresholdRepo.rows(sql, stationId ? [stationId] : []);
    const { thresholds, own, inherited } = thresholdsOf(rows, stationId);
    const row = rows.find((one) => one.stationId === stationId);
    return {
      deviceId: stationId,
      thresholds,
      own,
      inherited,
      updatedAt: row?.updatedAt.toISOString() ?? null,
      updatedBy: row?.updatedBy ?? null,
    };
  }

  /** The station, visible to the caller (404) and a flood station (400). */
  private async checkStation(sql: Sql, deviceId: string, lang: Lang): Promise<void> {
    const kind = await areaSettingRepo.deviceKind(sql, deviceId);
    if (kind === undefined) throw deviceProblem(404, 'iot.deviceNotFound');
    if (!kind || !floodMonitorArea.kinds.includes(kind as never))
      throw deviceProblem(400, 'monitor.deviceNotInArea', {
        area: floodMonitorArea.title[lang],
      });
  }
}
