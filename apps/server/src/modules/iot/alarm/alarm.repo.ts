import type { AlarmKind, AlarmLevel } from '@shuili/contract';
import { lockKey, type Sql } from '../../../db/database';
import type { AlarmRuleSpec } from './alarm-evaluator';

interface RuleRow {
  id: string;
  tenant_id: string;
  rule_name: string;
  product_id: string | null;
  device_id: string | null;
  property_key: string;
  kind: AlarmKind;
  low: number | null;
  high: number | null;
  rate_per_minute: number | null;
  no_data_minutes: number | null;
  hysteresis: number | null;
  level: AlarmLevel;
}

export interface AlarmRecordRow {
  id: string;
  tenant_id: string;
  rule_id: string | null;
  device_id: string | null;
  property_key: string;
  level: AlarmLevel;
  value: number | null;
  threshold: number | null;
  state: 'open' | 'cleared';
  started_at: Date;
  cleared_at: Date | null;
}

/** A device as an alarm message names it. */
export interface AlarmDevice {
  id: string;
  device_no: string;
  device_name: string | null;
  thing_model: unknown;
}

/** A noData rule whose device has been silent too long and has no open alarm. */
export interface SilentDevice {
  rule_id: string;
  tenant_id: string;
  device_id: string;
  last_ts: Date | null;
}

const RULE_COLUMNS = `id::text, tenant_id::text, rule_name, product_id::text, device_id::text,
  property_key, kind, low, high, rate_per_minute, no_data_minutes, hysteresis, level`;

const RECORD_COLUMNS = `id::text, tenant_id::text, rule_id::text, device_id::text, property_key,
  level, value, threshold, state, started_at, cleared_at`;

function toSpec(row: RuleRow): AlarmRuleSpec {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    ruleName: row.rule_name,
    productId: row.product_id,
    deviceId: row.device_id,
    propertyKey: row.property_key,
    kind: row.kind,
    low: row.low,
    high: row.high,
    ratePerMinute: row.rate_per_minute,
    noDataMinutes: row.no_data_minutes,
    hysteresis: row.hysteresis ?? 0,
    level: row.level,
  };
}

/** A stored numeric reading. */
export interface StoredReading {
  ts: Date;
  value: number;
}

export const alarmRepo = {
  /**
   * The stored reading just before each of these (same device and key, earlier time, a number),
   * whichever node stored it; answered by position, undefined where there is none. One indexed
   * probe each (the key is tenant, device, key, time).
   */
  async previousReadings(
    sql: Sql,
    tenantId: string,
    points: ReadonlyArray<{ deviceId: string; key: string; ts: Date }>,
  ): Promise<Array<StoredReading | undefined>> {
    const { rows } = await sql.query<{ i: number; ts: Date; value: number }>(
      `SELECT p.i::int AS i, previous.ts, previous.value
         FROM unnest($2::bigint[], $3::text[], $4::timestamptz[])
              WITH ORDINALITY AS p(device_id, key, ts, i)
         CROSS JOIN LATERAL (
           SELECT t.ts, t.value FROM iot_telemetry t
            WHERE t.tenant_id = $1 AND t.device_id = p.device_id AND t.key = p.key
              AND t.ts < p.ts AND t.value IS NOT NULL
            ORDER BY t.ts DESC LIMIT 1) previous`,
      [
        tenantId,
        points.map((point) => point.deviceId),
        points.map((point) => point.key),
        points.map((point) => point.ts),
      ],
    );
    const found: Array<StoredReading | undefined> = points.map(() => undefined);
    for (const row of rows) found[row.i - 1] = { ts: row.ts, value: row.value };
    return found;
  },

  /** The enabled rules of the tenant in context. */
  async enabledRules(sql: Sql): Promise<AlarmRuleSpec[]> {
    const { rows } = await sql.query<RuleRow>(
      `SELECT ${RULE_COLUMNS} FROM iot_alarm_rule WHERE status = 1`,
    );
    return rows.map(toSpec);
  },

  async rule(sql: Sql, id: string): Promise<AlarmRuleSpec | undefined> {
    const { rows } = await sql.query<RuleRow>(
      `SELECT ${RULE_COLUMNS} FROM iot_alarm_rule WHERE id = $1`,
      [id],
    );
    return rows[0] && toSpec(rows[0]);
  },

  /** Open alarms among these rules and devices, as "ruleId:deviceId" -> record id. */
  async openOf(sql: Sql, ruleIds: string[], deviceIds: string[]): Promise<Map<string, string>> {
    const { rows } = await sql.query<{ id: string; rule_id: string; device_id: string }>(
      `SELECT id::text, rule_id::text, device_id::text FROM iot_alarm_record
        WHERE state = 'open' AND rule_id = ANY ($1::bigint[]) AND device_id = ANY ($2::bigint[])`,
      [ruleIds, deviceIds],
    );
    return new Map(rows.map((row) => [`${row.rule_id}:${row.device_id}`, row.id]));
  },

  /**
   * Opens an alarm unless one of the rule and device is open already. The advisory lock makes
   * "check, then insert" one step across nodes, so there is never a second open record.
   */
  async open(
    sql: Sql,
    alarm: {
      tenantId: string;
      rule: AlarmRuleSpec;
      deviceId: string;
      /** What was measured, when not the rule's property (a rolling rain sum's window). */
      propertyKey?: string | undefined;
      value: number | null;
      threshold: number | null;
      at: Date;
    },
  ): Promise<AlarmRecordRow | undefined> {
    await sql.query('SELECT pg_advisory_xact_lock($1::bigint)', [
      lockKey(`iot_alarm:${alarm.rule.id}:${alarm.deviceId}`),
    ]);
    const { rows: open } = await sql.query(
      `SELECT 1 FROM iot_alarm_record WHERE rule_id = $1 AND device_id = $2 AND state = 'open'`,
      [alarm.rule.id, alarm.deviceId],
    );
    if (open.length > 0) return undefined;
    const { rows } = await sql.query<AlarmRecordRow>(
      `INSERT INTO iot_alarm_record (tenant_id, rule_id, device_id, property_key, level, value,
                                     threshold, started_at, state)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'open') RETURNING ${RECORD_COLUMNS}`,
      [
        alarm.tenantId,
        alarm.rule.id,
        alarm.deviceId,
        alarm.propertyKey ?? alarm.rule.propertyKey,
        alarm.rule.level,
        alarm.value,
        alarm.threshold,
        alarm.at,
      ],
    );
    return rows[0];
  },

  async clear(sql: Sql, id: string, at: Date): Promise<AlarmRecordRow | undefined> {
    const { rows } = await sql.query<AlarmRecordRow>(
      `UPDATE iot_alarm_record SET state = 'cleared', cleared_at = greatest($2, started_at),
              updated_at = now()
        WHERE id = $1 AND state = 'open' RETURNING ${RECORD_COLUMNS}`,
      [id, at],
    );
    return rows[0];
  },

  /** Clears the open alarms of rules deleted or disabled (nothing would ever clear them). */
  async clearOfRules(sql: Sql, ruleIds: string[]): Promise<void> {
    await sql.query(
      `UPDATE iot_alarm_record SET state = 'cleared', cleared_at = now(), updated_at = now()
        WHERE state = 'open' AND rule_id = ANY ($1::bigint[])`,
      [ruleIds],
    );
  },

  /**
   * Acknowledges these alarms at once, each one the caller may see (the device scope policies);
   * answers the records acknowledged, none when one of them is not there for the caller (the
   * service then rolls the whole call back). Acknowledging again replaces the comment.
   */
  async acknowledge(
    sql: Sql,
    ids: string[],
    by: { userId: string; username: string; comment: string },
  ): Promise<AlarmRecordRow[]> {
    const { rows } = await sql.query<AlarmRecordRow>(
      `UPDATE iot_alarm_record
          SET acknowledged_by = $2, acknowledged_at = now(), ack_comment = $3,
              updated_at = now(), updated_by = $4
        WHERE id = ANY ($1::bigint[]) RETURNING ${RECORD_COLUMNS}`,
      [ids, by.username, by.comment, by.userId],
    );
    return rows;
  },

  async devices(sql: Sql, ids: string[]): Promise<Map<string, AlarmDevice>> {
    const { rows } = await sql.query<AlarmDevice>(
      `SELECT d.id::text, d.device_no, d.device_name, p.thing_model
         FROM iot_device d LEFT JOIN iot_product p ON p.id = d.product_id
        WHERE d.id = ANY ($1::bigint[])`,
      [ids],
    );
    return new Map(rows.map((row) => [row.id, row]));
  },

  /**
   * The bell notice of an alarm, addressed to the users who may see it (recipients), in every
   * interface language and tied to its record.
   */
  async notify(
    sql: Sql,
    notice: {
      tenantId: string;
      alarmId: string;
      title: string;
      content: string;
      titleI18n: Record<string, string>;
      contentI18n: Record<string, string>;
      priority: string;
      recipients: string[];
    },
  ): Promise<string> {
    const { rows } = await sql.query<{ id: string }>(
      `INSERT INTO notification (tenant_id, title, content, title_i18n, content_i18n, alarm_id,
                                 type, priority, publish_scope, publish_targets)
       VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6, 'notice', $7, 'users', $8::bigint[]) RETURNING id::text`,
      [
        notice.tenantId,
        notice.title,
        notice.content,
        JSON.stringify(notice.titleI18n),
        JSON.stringify(notice.contentI18n),
        notice.alarmId,
        notice.priority,
        notice.recipients,
      ],
    );
    return rows[0]!.id;
  },

  /**
   * The enabled users who may read a device's alarms, as over HTTP: a role granted the alarm
   * records' query (or ROLE_ADMIN), and the device inside their device scope (zones and
   * projects; none assigned: every device, a rule of no device included).
   */
  async recipients(sql: Sql, deviceId: string | null, alarmQueryUrl: string): Promise<string[]> {
    const { rows } = await sql.query<{ id: string }>(
      `SELECT u.id::text FROM sys_user u
         LEFT JOIN iot_device d ON d.id = $1::bigint
        WHERE u.status = 1
          AND EXISTS (SELECT 1 FROM sys_user_role ur JOIN sys_role r ON r.id = ur.role_id AND r.status = 1
                       WHERE ur.user_id = u.id
                         AND (r.role_code = 'ROLE_ADMIN' OR EXISTS (
                              SELECT 1 FROM sys_role_url ru JOIN sys_url url ON url.id = ru.url_id
                               WHERE ru.role_id = r.id AND url.url = $2)))
          AND coalesce(shuili_user_sees_device(u.id, d.zone_id, d.project_id), false)
        ORDER BY u.id`,
      [deviceId, alarmQueryUrl],
    );
    return rows.map((row) => row.id);
  },

  async tenantCode(sql: Sql, tenantId: string): Promise<string | undefined> {
    const { rows } = await sql.query<{ tenant_code: string }>(
      'SELECT tenant_code FROM tenant WHERE id = $1',
      [tenantId],
    );
    return rows[0]?.tenant_code;
  },

  /**
   * Devices silent longer than a noData rule allows (never reported: counted from when the
   * device was added), without an open alarm of that rule; every tenant (system context).
   */
  async silentDevices(sql: Sql): Promise<SilentDevice[]> {
    const { rows } = await sql.query<SilentDevice>(
      `SELECT r.id::text AS rule_id, r.tenant_id::text, d.id::text AS device_id, l.ts AS last_ts
         FROM iot_alarm_rule r
         JOIN iot_device d ON d.tenant_id = r.tenant_id
          AND (d.id = r.device_id OR (r.device_id IS NULL AND d.product_id = r.product_id))
         LEFT JOIN iot_telemetry_latest l
           ON l.tenant_id = d.tenant_id AND l.device_id = d.id AND l.key = r.property_key
        WHERE r.kind = 'noData' AND r.status = 1 AND r.no_data_minutes IS NOT NULL
          AND coalesce(l.ts, d.created_at) < now() - make_interval(mins => r.no_data_minutes)
          AND NOT EXISTS (SELECT 1 FROM iot_alarm_record a
                           WHERE a.rule_id = r.id AND a.device_id = d.id AND a.state = 'open')`,
    );
    return rows;
  },
};
