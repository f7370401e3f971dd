import { ALARM_LEVELS, WORKBENCH_RECENT } from '@shuili/contract';
import type { Sql } from '../../../db/database';

/**
 * The SQL of the operations overview. Every statement is one grouped pass (no query per device)
 * and runs in the caller's tenant transaction: row-level security keeps the tenant's rows and,
 * for a confined caller, those of the devices of their zones and projects.
 */

const iso = (ref: string) => `to_char(${ref} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const LEVELS = `ARRAY['${ALARM_LEVELS.join("','")}']`;

export interface KindCountRow {
  kind: string;
  total: number;
  online: number;
  fault: number;
}

export interface MapDeviceRow {
  id: string;
  device_no: string;
  device_name: string;
  kind: string;
  lat: number;
  lng: number;
  online: boolean;
  status: number;
}

export interface AlarmLevelRow {
  level: string;
  open: number;
  unacknowledged: number;
}

export interface RecentAlarmRow {
  id: string;
  device_id: string | null;
  device_no: string | null;
  device_name: string | null;
  property_key: string;
  level: string;
  value: number | null;
  threshold: number | null;
  state: string;
  started_at: string;
  cleared_at: string | null;
  acknowledged: boolean;
}

export interface RecentCommandRow {
  id: string;
  device_id: string | null;
  device_no: string | null;
  device_name: string | null;
  name: string;
  params: string | null;
  status: string;
  username: string | null;
  created_at: string;
  latency_ms: number | null;
  result: string | null;
}

export const workbenchRepo = {
  /** Devices of these kinds by kind: total, online, in fault. */
  async countsByKind(sql: Sql, kinds: readonly string[]): Promise<KindCountRow[]> {
    const { rows } = await sql.query<KindCountRow>(
      `SELECT p.device_kind AS kind, count(*)::int AS total,
              count(*) FILTER (WHERE d.online)::int AS online,
              count(*) FILTER (WHERE d.status <> 0)::int AS fault
         FROM iot_device d JOIN iot_product p ON p.id = d.product_id
        WHERE p.device_kind = ANY($1::text[])
        GROUP BY p.device_kind`,
      [kinds],
    );
    return rows;
  },

  /**
   * Devices of these kinds with an open alarm, by kind. Read from the alarms' side: a few open
   * alarms find their devices by key, where a join from every device would scan the alarms once
   * per device (row-level security hides how many devices there are from the planner).
   */
  async alarmedByKind(
    sql: Sql,
    kinds: readonly string[],
  ): Promise<Array<{ kind: string; alarm: number }>> {
    const { rows } = await sql.query<{ kind: string; alarm: number }>(
      `SELECT p.device_kind AS kind, count(DISTINCT a.device_id)::int AS alarm
         FROM iot_alarm_record a
         JOIN iot_device d ON d.id = a.device_id
         JOIN iot_product p ON p.id = d.product_id
        WHERE a.state = 'open' AND p.device_kind = ANY($1::text[])
        GROUP BY p.device_kind`,
      [kinds],
    );
    return rows;
  },

  /** The located devices of these kinds with their state, in id order. */
  async mapDevices(sql: Sql, kinds: readonly string[]): Promise<MapDeviceRow[]> {
    const { rows } = await sql.query<MapDeviceRow>(
      `SELECT d.id::text AS id, d.device_no, d.device_name, p.device_kind AS kind, d.lat, d.lng,
              d.online, d.status
         FROM iot_device d JOIN iot_product p ON p.id = d.product_id
        WHERE p.device_kind = ANY($1::text[]) AND d.lat IS NOT NULL AND d.lng IS NOT NULL
        ORDER BY d.id`,
      [kinds],
    );
    return rows;
  },

  /**
   * Each device's highest alarm wanting attention (open, or cleared and not acknowledged), as
   * the device list's alarmLevel; devices without one are absent.
   */
  async deviceAlarmLevels(sql: Sql): Promise<Array<{ device_id: string; level: string }>> {
    const { rows } = await sql.query<{ device_id: string; level: string }>(
      `SELECT device_id::text AS device_id,
              (${LEVELS})[max(array_position(${LEVELS}, level))] AS level
         FROM iot_alarm_record
        WHERE device_id IS NOT NULL AND (state = 'open' OR acknowledged_at IS NULL)
        GROUP BY device_id`,
    );
    return rows;
  },

  /** Alarms wanting attention per level: open, and not yet acknowledged (open or cleared). */
  async alarmLevels(sql: Sql): Promise<AlarmLevelRow[]> {
    const { rows } = await sql.query<AlarmLevelRow>(
      `SELECT level, count(*) FILTER (WHERE state = 'open')::int AS open,
              count(*) FILTER (WHERE acknowledged_at IS NULL)::int AS unacknowledged
         FROM iot_alarm_record
        WHERE state = 'open' OR acknowledged_at IS NULL
        GROUP BY level`,
    );
    return rows;
  },

  async recentAlarms(sql: Sql): Promise<RecentAlarmRow[]> {
    const { rows } = await sql.query<RecentAlarmRow>(
      `SELECT a.id::text AS id, a.device_id::text AS device_id, d.device_no, d.device_name,
              a.property_key, a.level, a.value, a.threshold, a.state,
              ${iso('a.started_at')} AS started_at, ${iso('a.cleared_at')} AS cleared_at,
              a.acknowledged_at IS NOT NULL AS acknowledged
         FROM (SELECT * FROM iot_alarm_record ORDER BY started_at DESC, id DESC LIMIT $1) a
         LEFT JOIN iot_device d ON d.id = a.device_id
        ORDER BY a.started_at DESC, a.id DESC`,
      [WORKBENCH_RECENT],
    );
    return rows;
  },

  /** Commands sent since `since` (the tenant's midnight), and how many of them failed. */
  async commandsSince(sql: Sql, since: Date): Promise<{ total: number; failed: number }> {
    const { rows } = await sql.query<{ total: number; failed: number }>(
      `SELECT count(*)::int AS total,
              count(*) FILTER (WHERE status IN ('failed', 'timeout', 'expired'))::int AS failed
         FROM iot_command WHERE created_at >= $1`,
      [since.toISOString()],
    );
    return rows[0] ?? { total: 0, failed: 0 };
  },

  async recentCommands(sql: Sql): Promise<RecentCommandRow[]> {
    const { rows } = await sql.query<RecentCommandRow>(
      `SELECT c.id::text AS id, c.device_id::text AS device_id, d.device_no, d.device_name,
              c.name, c.params, c.status, c.username, ${iso('c.created_at')} AS created_at,
              c.latency_ms, c.result
         FROM (SELECT * FROM iot_command ORDER BY created_at DESC, id DESC LIMIT $1) c
         LEFT JOIN iot_device d ON d.id = c.device_id
        ORDER BY c.created_at DESC, c.id DESC`,
      [WORKBENCH_RECENT],
    );
    return rows;
  },

  /** The instant the tenant's calendar day `day` (YYYY-MM-DD) starts in `timeZone`. */
  async dayStart(sql: Sql, day: string, timeZone: string): Promise<Date> {
    const { rows } = await sql.query<{ at: Date }>(
      `SELECT ($1::date::timestamp AT TIME ZONE $2) AS at`,
      [day, timeZone],
    );
    return new Date(rows[0]!.at);
  },
};
