import {
  areaOf,
  checkAreaSettings,
  settingValueOf,
  type AreaDef,
  type AreaDeviceSettings,
  type AreaSettingQuery,
  type AreaSettingValue,
  type Lang,
  type UpdateAreaSettingInput,
} from '@shuili/contract';
import type { Database, Sql } from '../../../db/database';
import { AppError } from '../../../http/app-error';
import type { AuthContext } from '../../../http/request-context';
import { areaSettingRepo, type AreaSettingDeviceRow } from './area-setting.repo';

const deviceProblem = (status: number, key: string, params?: Record<string, string>) =>
  new AppError(status, key, { params, fields: [{ field: 'deviceId', key, params }] });

function areaByCode(code: string): AreaDef {
  const area = areaOf(code);
  // The routes' schemas only let declared codes through; a caller in code names a real one.
  if (!area)
    throw new AppError(400, 'validation.invalid', {
      fields: [{ field: 'area', key: 'validation.invalid' }],
    });
  return area;
}

/**
 * A device's value of one of its area's settings (its own, else the declaration's default), read
 * in the transaction given: what rules (the dry-run interlock, fertigation bands, ET0) go by.
 */
export async function areaSetting(
  sql: Sql,
  deviceId: string,
  areaCode: string,
  key: string,
): Promise<AreaSettingValue> {
  const def = areaOf(areaCode)?.settings.find((one) => one.key === key);
  if (!def) throw new Error(`area ${areaCode} declares no setting ${key}`);
  const [row] = await areaSettingRepo.values(sql, [deviceId], [key]);
  return settingValueOf(def, row?.value);
}

/**
 * Several devices' values of their area's settings at once (own, else the default), by device:
 * what rules judging many stations at a time (flood and silt warnings) go by.
 */
export async function areaSettingsOf(
  sql: Sql,
  areaCode: string,
  deviceIds: readonly string[],
): Promise<Map<string, Record<string, AreaSettingValue>>> {
  const area = areaByCode(areaCode);
  const keys = area.settings.map((def) => def.key);
  const rows =
    deviceIds.length && keys.length ? await areaSettingRepo.values(sql, [...deviceIds], keys) : [];
  return new Map(
    deviceIds.map((deviceId) => [
      deviceId,
      Object.fromEntries(
        area.settings.map((def) => [
          def.key,
          settingValueOf(
            def,
            rows.find((row) => row.device_id === deviceId && row.setting_key === def.key)?.value,
          ),
        ]),
      ),
    ]),
  );
}

/** Each device's settings with their defaults filled in. */
async function settingsOf(
  sql: Sql,
  area: AreaDef,
  devices: AreaSettingDeviceRow[],
): Promise<AreaDeviceSettings[]> {
  const keys = area.settings.map((def) => def.key);
  const rows =
    devices.length && keys.length
      ? await areaSettingRepo.values(
          sql,
          devices.map((device) => device.id),
          keys,
        )
      : [];
  return devices.map((device) => {
    const own = rows.filter((row) => row.device_id === device.id);
    const newest = own.reduce<(typeof own)[number] | undefined>(
      (latest, row) => (!latest || row.updated_at > latest.updated_at ? row : latest),
      undefined,
    );
    return {
      deviceId: device.id,
      deviceNo: device.device_no,
      deviceName: device.device_name,
      values: Object.fromEntries(
        area.settings.map((def) => [
          def.key,
          settingValueOf(def, own.find((row) => row.setting_key === def.key)?.value),
        ]),
      ),
      own: own.map((row) => row.setting_key).sort(),
      updatedAt: newest?.updated_at.toISOString() ?? null,
      updatedBy: newest?.updated_by ?? null,
    };
  });
}

/** Per-device values of the areas' declared settings (AreaDef.settings), under RLS. */
export class AreaSettingService {
  constructor(private readonly db: Database) {}

  query(
    auth: AuthContext,
    lang: Lang,
    query: AreaSettingQuery,
  ): Promise<{ list: AreaDeviceSettings[]; total: number }> {
    const area = areaByCode(query.area);
    return this.db.tenant(auth, async (sql) => {
      if (query.deviceId) await this.checkDevice(sql, area, query.deviceId, lang);
      const { rows, total } = await areaSettingRepo.devices(
        sql,
        area.kinds,
        query.deviceId,
        query.pageSize,
        (query.currentPage - 1) * query.pageSize,
      );
      return { list: await settingsOf(sql, area, rows), total };
    });
  }

  /** Checks every value first (400 naming `values.<key>`), then stores them all or none. */
  update(
    auth: AuthContext,
    lang: Lang,
    input: UpdateAreaSettingInput,
  ): Promise<AreaDeviceSettings> {
    const area = areaByCode(input.area);
    const problems = checkAreaSettings(area, input.values, lang);
    if (problems.length) throw new AppError(400, 'validation.invalid', { fields: problems });
    return this.db.tenant(auth, async (sql) => {
      const device = await this.checkDevice(sql, area, input.deviceId, lang);
      for (const [key, value] of Object.entries(input.values))
        await areaSettingRepo.put(sql, {
          tenantId: auth.tenantId,
          deviceId: device.id,
          key,
          value,
          username: auth.username,
        });
      const [settings] = await settingsOf(sql, area, [device]);
      return settings!;
    });
  }

  /** The device, visible to the caller (404) and one of the area's kinds (400). */
  private async checkDevice(
    sql: Sql,
    area: AreaDef,
    deviceId: string,
    lang: Lang,
  ): Promise<AreaSettingDeviceRow> {
    const kind = await areaSettingRepo.deviceKind(sql, deviceId);
    if (kind === undefined) throw deviceProblem(404, 'iot.deviceNotFound');
    if (!kind || !area.kinds.includes(kind as never))
      throw deviceProblem(400, 'monitor.deviceNotInArea', { area: area.title[lang] });
    const { rows } = await areaSettingRepo.devices(sql, area.kinds, deviceId, 1, 0);
    return rows[0]!;
  }
}
