import {
  ALARM_LEVELS,
  alarmRecordEntity,
  AREAS,
  DEVICE_AREAS,
  entityCalls,
  iotCommandEntity,
  iotDeviceEntity,
  ROLE_ADMIN,
  TELEMETRY_CALLS,
  type AlarmLevel,
  type WorkbenchAreaCounts,
  type WorkbenchMap,
  type WorkbenchOverview,
} from '@shuili/contract';
import type { Database, Sql } from '../../../db/database';
import { DataFieldService } from '../../../entity/data-field.service';
import { readableFields, type FieldGrants } from '../../../entity/field-grants';
import type { AuthContext } from '../../../http/request-context';
import { tenantTimeZone } from '../../iot/telemetry/telemetry-settings';
import { WATER_AREAS, calendarOf, waterDeliveredRepo } from '../water/water-delivered.repo';
import { workbenchRepo, type KindCountRow } from './workbench.repo';

const dataFields = new DataFieldService();

/** The calls whose grants open the overview's sections (as the device list and live data). */
const SECTION_GRANTS = {
  alarms: entityCalls(alarmRecordEntity).query,
  commands: entityCalls(iotCommandEntity).query,
  telemetry: TELEMETRY_CALLS.latest,
} as const;

/** Every device kind some area covers. */
const AREA_KINDS = [...new Set(AREAS.flatMap((area) => area.kinds))];
const areaOfKind = new Map(AREAS.flatMap((area) => area.kinds.map((kind) => [kind, area.code])));

/**
 * The operations overview (issue 18 item 5): per area the devices online, offline and in fault,
 * the alarms by level, the water delivered today and this month, the located devices for the
 * map, and the newest alarms and operation records. One call, a handful of grouped statements in
 * one tenant transaction (the caller's device scope), whatever the number of devices. A section
 * is left out when the caller's role may not call the screen it comes from.
 */
export class WorkbenchService {
  constructor(
    private readonly db: Database,
    private readonly grants: FieldGrants,
  ) {}

  private async may(auth: AuthContext, url: string): Promise<boolean> {
    return (
      auth.activeRole === ROLE_ADMIN || this.grants.allows(auth.tenantId, auth.activeRole, url)
    );
  }

  async overview(auth: AuthContext, now = new Date()): Promise<WorkbenchOverview> {
    const [withAlarms, withCommands, withTelemetry] = await Promise.all([
      this.may(auth, SECTION_GRANTS.alarms),
      this.may(auth, SECTION_GRANTS.commands),
      this.may(auth, SECTION_GRANTS.telemetry),
    ]);
    return this.db.tenant(auth, async (sql) => {
      // The device list's field rules: its data permissions, and alarm levels for alarm readers.
      const readable = await readableFields(
        iotDeviceEntity,
        await dataFields.visible(sql, auth.activeRole, iotDeviceEntity.menuCode),
        auth,
        this.grants,
      );
      const field = (name: string) => !readable || readable.has(name);
      const timeZone = await tenantTimeZone(sql);
      const { today, monthStart } = await calendarOf(sql, timeZone, now);

      const counts = await workbenchRepo.countsByKind(sql, AREA_KINDS);
      const alarmed = withAlarms ? await workbenchRepo.alarmedByKind(sql, AREA_KINDS) : undefined;
      const overview: WorkbenchOverview = {
        generatedAt: now.toISOString(),
        // Areas of devices only (traceability has pages, no devices of its own).
        areas: DEVICE_AREAS.map((area) => areaCounts(area.kinds, area.code, counts, alarmed)),
        map: await this.map(sql, withAlarms && field('alarmLevel'), field),
      };
      if (withAlarms) {
        const levels = Object.fromEntries(ALARM_LEVELS.map((level) => [level, 0])) as Record<
          AlarmLevel,
          number
        >;
        let unacknowledged = 0;
        for (const row of await workbenchRepo.alarmLevels(sql)) {
          if (row.level in levels) levels[row.level as AlarmLevel] = row.open;
          unacknowledged += row.unacknowledged;
        }
        overview.alarms = {
          levels,
          open: Object.values(levels).reduce((sum, n) => sum + n, 0),
          unacknowledged,
          recent: (await workbenchRepo.recentAlarms(sql)).map((row) => ({
            id: row.id,
            deviceId: row.device_id,
            deviceNo: row.device_no,
            deviceName: row.device_name,
            propertyKey: row.property_key,
            level: row.level,
            value: row.value,
            threshold: row.threshold,
            state: row.state,
            startedAt: row.started_at,
            clearedAt: row.cleared_at,
            acknowledged: row.acknowledged,
          })),
        };
      }
      if (withCommands) {
        const since = await workbenchRepo.dayStart(sql, today, timeZone);
        const sent = await workbenchRepo.commandsSince(sql, since);
        overview.commands = {
          today: sent.total,
          failedToday: sent.failed,
          recent: (await workbenchRepo.recentCommands(sql)).map((row) => ({
            id: row.id,
            deviceId: row.device_id,
            deviceNo: row.device_no,
            deviceName: row.device_name,
            name: row.name,
            params: row.params ?? '{}',
            status: row.status,
            username: row.username,
            createdAt: row.created_at,
            latencyMs: row.latency_ms,
            result: row.result,
          })),
        };
      }
      if (withTelemetry) {
        const kinds = WATER_AREAS.flatMap((area) => area.kinds);
        const totals = await waterDeliveredRepo.todayAndMonth(sql, { kinds, today, monthStart });
        const areas = WATER_AREAS.map((area) => {
          const mine = totals.filter((row) => area.kinds.includes(row.kind as never));
          return {
            area: area.code,
            today: round(mine.reduce((sum, row) => sum + row.today, 0)),
            month: round(mine.reduce((sum, row) => sum + row.month, 0)),
          };
        });
        overview.water = {
          timeZone,
          today: round(areas.reduce((sum, area) => sum + area.today, 0)),
          month: round(areas.reduce((sum, area) => sum + area.month, 0)),
          areas,
        };
      }
      return overview;
    });
  }

  /** Located devices; none when the caller's data permissions hide where devices stand. */
  private async map(
    sql: Sql,
    withAlarms: boolean,
    field: (name: string) => boolean,
  ): Promise<WorkbenchMap> {
    const rows =
      field('lat') && field('lng') ? await workbenchRepo.mapDevices(sql, AREA_KINDS) : [];
    const named = field('deviceName');
    const levels = withAlarms
      ? new Map(
          (await workbenchRepo.deviceAlarmLevels(sql)).map((row) => [row.device_id, row.level]),
        )
      : undefined;
    return {
      ids: rows.map((row) => row.id),
      names: rows.map((row) => (named ? row.device_name : row.device_no)),
      areas: rows.map((row) => areaOfKind.get(row.kind as never) ?? ''),
      lat: rows.map((row) => row.lat),
      lng: rows.map((row) => row.lng),
      online: rows.map((row) => row.online),
      status: rows.map((row) => row.status),
      ...(levels ? { alarmLevels: rows.map((row) => levels.get(row.id) ?? null) } : {}),
    };
  }
}

function areaCounts(
  kinds: readonly string[],
  area: string,
  rows: KindCountRow[],
  alarmed: Array<{ kind: string; alarm: number }> | undefined,
): WorkbenchAreaCounts {
  const mine = <R extends { kind: string }>(list: R[]) =>
    list.filter((row) => kinds.includes(row.kind));
  const sum = <R extends { kind: string }>(list: R[], pick: (row: R) => number) =>
    mine(list).reduce((total, row) => total + pick(row), 0);
  const total = sum(rows, (row) => row.total);
  const online = sum(rows, (row) => row.online);
  return {
    area,
    total,
    online,
    offline: total - online,
    fault: sum(rows, (row) => row.fault),
    ...(alarmed ? { alarm: sum(alarmed, (row) => row.alarm) } : {}),
  };
}

/** Cubic metres to the litre: sums of doubles carry noise in the last digits. */
const round = (value: number) => Math.round(value * 1000) / 1000;
