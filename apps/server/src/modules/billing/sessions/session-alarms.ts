import type { AlarmKind, AlarmLevel } from '@shuili/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Sql } from '../../../db/database';
import type { AlarmRuleSpec } from '../../iot/alarm/alarm-evaluator';
import type { AlarmService } from '../../iot/alarm/alarm.service';
import { alarmRepo } from '../../iot/alarm/alarm.repo';

/**
 * The card controllers' alarms (issue 20 item 5): each is one alarm rule of the tenant, of no
 * product and no device (the per-reading evaluation never applies it), made when first needed
 * and raised through the alarm engine like any other (records, bells, live pushes). Rule names
 * are tenant data, as the drought and rainstorm rules' are.
 */
export const SESSION_ALARMS = {
  invalidCard: { name: 'Invalid or lost card', key: 'cardNo', kind: 'above', level: 'yellow' },
  recordConflict: {
    name: 'Controller record conflict',
    key: 'amountFen',
    kind: 'above',
    level: 'orange',
  },
  lowBalance: { name: 'Low card balance', key: 'balance', kind: 'below', level: 'blue' },
  tamper: { name: 'Controller tampered', key: 'tamper', kind: 'above', level: 'orange' },
} as const satisfies Record<
  string,
  { name: string; key: string; kind: AlarmKind; level: AlarmLevel }
>;
export type SessionAlarm = keyof typeof SESSION_ALARMS;

/** One occurrence to raise once the caller's transaction committed. */
export interface SessionAlarmRaise {
  alarm: SessionAlarm;
  tenantId: string;
  tenantCode: string;
  deviceId: string;
  /** What was measured: an amount (yuan), a balance (yuan); null for a card refused. */
  value: number | null;
  threshold: number | null;
  at: Date;
}

async function ruleOf(sql: Sql, tenantId: string, alarm: SessionAlarm) {
  const spec = SESSION_ALARMS[alarm];
  await sql.query(
    `INSERT INTO iot_alarm_rule (tenant_id, rule_name, property_key, kind, hysteresis, level, status)
     SELECT $1, $2, $3, $4, 0, $5, 1
      WHERE NOT EXISTS (SELECT 1 FROM iot_alarm_rule WHERE rule_name = $2)
     ON CONFLICT DO NOTHING`,
    [tenantId, spec.name, spec.key, spec.kind, spec.level],
  );
  const { rows } = await sql.query<{ id: string }>(
    `SELECT id::text FROM iot_alarm_rule WHERE rule_name = $1 AND status = 1 ORDER BY id LIMIT 1`,
    [spec.name],
  );
  return rows[0] ? alarmRepo.rule(sql, rows[0].id) : undefined;
}

/**
 * Raises the occurrences: each is an event, not a lasting condition, so it is opened and cleared
 * at once (one record per occurrence, a bell for each until acknowledged). A tenant that
 * disabled the rule gets none. Failures are logged: the money is posted either way.
 */
export async function raiseSessionAlarms(
  deps: { db: Database; alarms: AlarmService; log: FastifyBaseLogger },
  raises: readonly SessionAlarmRaise[],
): Promise<void> {
  for (const raise of raises) {
    try {
      const rule: AlarmRuleSpec | undefined = await deps.db.tenant(raise.tenantId, (sql) =>
        ruleOf(sql, raise.tenantId, raise.alarm),
      );
      if (!rule) continue;
      const verdict = {
        deviceId: raise.deviceId,
        value: raise.value,
        threshold: raise.threshold,
        at: raise.at,
      };
      await deps.alarms.judged(raise.tenantId, raise.tenantCode, rule, [
        { ...verdict, state: 'breach' },
      ]);
      await deps.alarms.judged(raise.tenantId, raise.tenantCode, rule, [
        { ...verdict, state: 'clear' },
      ]);
    } catch (error) {
      deps.log.warn({ err: error, alarm: raise.alarm }, 'card session alarm not raised');
    }
  }
}
