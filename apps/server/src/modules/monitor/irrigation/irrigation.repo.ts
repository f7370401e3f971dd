import {
  parseRotationStep,
  parseValveMember,
  type RotationStep,
  type ValveMember,
} from '@shuili/contract';
import type { Sql } from '../../../db/database';

export interface ChannelHold {
  device_id: string;
  channel: number;
  holder: string;
  holder_name: string;
  until: Date;
}

export interface ValveGroupRow {
  id: string;
  group_name: string;
  zone_id: string | null;
  members: ValveMember[];
  status: number;
}

/** A device as the irrigation rules check it. */
export interface IrrigationDevice {
  id: string;
  device_no: string;
  device_name: string;
  kind: string | null;
  thing_model: unknown;
  zone_id: string | null;
  lat: number | null;
  lng: number | null;
}

const GROUP_COLUMNS = 'id::text, group_name, zone_id::text, members, status';

function groupOf(
  row: Omit<ValveGroupRow, 'members'> & { members: string[] | null },
): ValveGroupRow {
  return {
    ...row,
    members: (row.members ?? []).flatMap((value) => parseValveMember(value) ?? []),
  };
}

export const irrigationRepo = {
  /** The live hold of a channel, if any. */
  async hold(sql: Sql, deviceId: string, channel: number): Promise<ChannelHold | undefined> {
    const { rows } = await sql.query<ChannelHold>(
      `SELECT device_id::text, channel, holder, holder_name, until FROM irrigation_channel_hold
        WHERE device_id = $1 AND channel = $2 AND until > now()`,
      [deviceId, channel],
    );
    return rows[0];
  },

  /**
   * Holds channels for a holder until a time. A channel some other holder holds still is left
   * out; answers the channels this holder got.
   */
  async takeHolds(
    sql: Sql,
    tenantId: string,
    holder: { holder: string; name: string; until: Date },
    members: readonly ValveMember[],
  ): Promise<ValveMember[]> {
    const got: ValveMember[] = [];
    for (const member of members) {
      const { rows } = await sql.query(
        `INSERT INTO irrigation_channel_hold AS h
                (tenant_id, device_id, channel, holder, holder_name, until)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (tenant_id, device_id, channel) DO UPDATE SET
           holder = EXCLUDED.holder, holder_name = EXCLUDED.holder_name, until = EXCLUDED.until
           WHERE h.holder = EXCLUDED.holder OR h.until <= now()
         RETURNING channel`,
        [tenantId, member.deviceId, member.channel, holder.holder, holder.name, holder.until],
      );
      if (rows.length) got.push(member);
    }
    return got;
  },

  async releaseHolds(sql: Sql, holder: string): Promise<void> {
    await sql.query('DELETE FROM irrigation_channel_hold WHERE holder = $1', [holder]);
  },

  async group(sql: Sql, id: string): Promise<ValveGroupRow | undefined> {
    const { rows } = await sql.query<Omit<ValveGroupRow, 'members'> & { members: string[] }>(
      `SELECT ${GROUP_COLUMNS} FROM monitor_valve_group WHERE id = $1`,
      [id],
    );
    return rows[0] ? groupOf(rows[0]) : undefined;
  },

  /** The enabled groups of a zone (and the zones below it). */
  async groupsOfZone(sql: Sql, zoneId: string): Promise<ValveGroupRow[]> {
    const { rows } = await sql.query<Omit<ValveGroupRow, 'members'> & { members: string[] }>(
      `WITH RECURSIVE zones AS (
         SELECT id FROM sys_zone WHERE id = $1
         UNION SELECT z.id FROM sys_zone z JOIN zones ON z.zone_parent = zones.id)
       SELECT ${GROUP_COLUMNS} FROM monitor_valve_group
        WHERE zone_id IN (SELECT id FROM zones) AND status = 1 ORDER BY id`,
      [zoneId],
    );
    return rows.map(groupOf);
  },

  /** Irrigation valve devices of a zone (and the zones below it) the caller sees (RLS). */
  async valvesOfZone(sql: Sql, zoneId: string): Promise<IrrigationDevice[]> {
    const { rows } = await sql.query<IrrigationDevice>(
      `WITH RECURSIVE zones AS (
         SELECT id FROM sys_zone WHERE id = $1
         UNION SELECT z.id FROM sys_zone z JOIN zones ON z.zone_parent = zones.id)
       SELECT d.id::text, d.device_no, d.device_name, p.device_kind AS kind, p.thing_model,
              d.zone_id::text, d.lat::float8 AS lat, d.lng::float8 AS lng
         FROM iot_device d JOIN iot_product p ON p.id = d.product_id
        WHERE d.zone_id IN (SELECT id FROM zones) AND p.device_kind = 'irrigation_valve'
        ORDER BY d.device_no`,
      [zoneId],
    );
    return rows;
  },

  /** Devices by id (RLS: those the caller sees). */
  async devices(sql: Sql, ids: readonly string[]): Promise<IrrigationDevice[]> {
    if (ids.length === 0) return [];
    const { rows } = await sql.query<IrrigationDevice>(
      `SELECT d.id::text, d.device_no, d.device_name, p.device_kind AS kind, p.thing_model,
              d.zone_id::text, d.lat::float8 AS lat, d.lng::float8 AS lng
         FROM iot_device d LEFT JOIN iot_product p ON p.id = d.product_id
        WHERE d.id = ANY ($1::bigint[])`,
      [ids],
    );
    return rows;
  },

  async rotation(
    sql: Sql,
    id: string,
  ): Promise<
    | {
        id: string;
        schedule_name: string;
        steps: RotationStep[];
        start_time: string;
        days_of_week: string[] | null;
        status: number;
      }
    | undefined
  > {
    const { rows } = await sql.query<{
      id: string;
      schedule_name: string;
      steps: string[] | null;
      start_time: string;
      days_of_week: string[] | null;
      status: number;
    }>(
      `SELECT id::text, schedule_name, steps, start_time, days_of_week, status
         FROM monitor_rotation_schedule WHERE id = $1`,
      [id],
    );
    const row = rows[0];
    return row
      ? { ...row, steps: (row.steps ?? []).flatMap((value) => parseRotationStep(value) ?? []) }
      : undefined;
  },

  /** Rotation schedules whose steps name a valve group. */
  async rotationsUsingGroup(sql: Sql, groupId: string): Promise<string[]> {
    const { rows } = await sql.query<{ schedule_name: string }>(
      `SELECT schedule_name FROM monitor_rotation_schedule
        WHERE EXISTS (SELECT 1 FROM unnest(steps) s WHERE split_part(s, ':', 1) = $1)`,
      [groupId],
    );
    return rows.map((row) => row.schedule_name);
  },

  async soilRule(
    sql: Sql,
    id: string,
  ): Promise<
    | {
        id: string;
        rule_name: string;
        device_id: string;
        group_id: string;
        depth: string;
        start_below: number;
        stop_above: number;
        rain_skip_mm: number | null;
        max_minutes: number;
        status: number;
      }
    | undefined
  > {
    const { rows } = await sql.query<{
      id: string;
      rule_name: string;
      device_id: string;
      group_id: string;
      depth: string;
      start_below: number;
      stop_above: number;
      rain_skip_mm: number | null;
      max_minutes: number;
      status: number;
    }>(
      `SELECT id::text, rule_name, device_id::text, group_id::text, depth,
              start_below::float8 AS start_below, stop_above::float8 AS stop_above,
              rain_skip_mm::float8 AS rain_skip_mm, max_minutes, status
         FROM monitor_soil_moisture_rule WHERE id = $1`,
      [id],
    );
    return rows[0];
  },

  /** A device's newest reading of a key, if any. */
  async latest(
    sql: Sql,
    deviceId: string,
    key: string,
  ): Promise<{ value: number; ts: Date } | undefined> {
    const { rows } = await sql.query<{ value: number; ts: Date }>(
      `SELECT value, ts FROM iot_telemetry_latest WHERE device_id = $1 AND key = $2
          AND value IS NOT NULL`,
      [deviceId, key],
    );
    return rows[0];
  },

  /** The tenant's weather stations with a position. */
  async weatherStations(sql: Sql): Promise<IrrigationDevice[]> {
    const { rows } = await sql.query<IrrigationDevice>(
      `SELECT d.id::text, d.device_no, d.device_name, p.device_kind AS kind, p.thing_model,
              d.zone_id::text, d.lat::float8 AS lat, d.lng::float8 AS lng
         FROM iot_device d JOIN iot_product p ON p.id = d.product_id
        WHERE p.device_kind = 'weather_station' AND d.lat IS NOT NULL AND d.lng IS NOT NULL`,
    );
    return rows;
  },

  /** Rain that fell at a station in the 24 h before `at` (sum of its interval rainfall). */
  async rainIn24h(sql: Sql, deviceId: string, at: Date): Promise<number> {
    const { rows } = await sql.query<{ total: number | null }>(
      `SELECT sum(value)::float8 AS total FROM iot_telemetry
        WHERE device_id = $1 AND key = 'rainfall' AND ts > $2::timestamptz - interval '24 hours'
          AND ts <= $2`,
      [deviceId, at],
    );
    return rows[0]?.total ?? 0;
  },
};
