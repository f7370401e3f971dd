import { ALARM_LEVELS, type AlarmLevel, type DeviceKind } from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { Database, Sql } from '../../../db/database';
import type { AlarmRuleSpec } from '../../iot/alarm/alarm-evaluator';
import type { AlarmService } from '../../iot/alarm/alarm.service';
import { alarmRepo } from '../../iot/alarm/alarm.repo';
import { ensurePlatformCheck } from '../../scheduler/platform-check';
import type { Processor } from '../../scheduler/scheduler.service';

/** A station's state under a warning: the highest level it reaches now, and on what. */
export interface StationJudgement {
  level: AlarmLevel;
  /** What was measured (`rainfall3h`, `siltDepth`): the alarm record and its notice name it. */
  propertyKey: string;
  value: number;
  threshold: number;
  at: Date;
}

/**
 * A warning judged per station against the station's own levels: a rainstorm level, a water
 * level above the warning line, silt past the dredging depth. Each level is one alarm rule of
 * the tenant (of no product and no device: the per-reading evaluation never applies it), created
 * when first needed; at most the highest level reached is open for a station, the others clear.
 */
export interface StationWarning {
  /** Names it in logs and run results. */
  code: string;
  kinds: readonly DeviceKind[];
  /** The rule of each level this warning raises, by name (tenant data, as alarm lists show it). */
  rules: Partial<Record<AlarmLevel, string>>;
  /** The rules' property (a judgement names its own). */
  propertyKey: string;
  kind: 'above' | 'below';
  /**
   * The stations' judgements now (tenant context): a level reached, null when none is (their
   * open warnings clear); a station left out (nothing measured yet) keeps what it has.
   */
  judge(sql: Sql, stationIds: string[], now: Date): Promise<Map<string, StationJudgement | null>>;
}

/** The tenant's rule of a level of a warning (created when missing); none when disabled. */
async function levelRule(
  sql: Sql,
  tenantId: string,
  warning: StationWarning,
  level: AlarmLevel,
  name: string,
): Promise<AlarmRuleSpec | undefined> {
  await sql.query(
    `INSERT INTO iot_alarm_rule (tenant_id, rule_name, property_key, kind, hysteresis, level, status)
     SELECT $1, $2, $3, $4, 0, $5, 1
      WHERE NOT EXISTS (SELECT 1 FROM iot_alarm_rule WHERE rule_name = $2)
     ON CONFLICT DO NOTHING`,
    [tenantId, name, warning.propertyKey, warning.kind, level],
  );
  const { rows } = await sql.query<{ id: string }>(
    `SELECT id::text FROM iot_alarm_rule WHERE rule_name = $1 AND status = 1 ORDER BY id LIMIT 1`,
    [name],
  );
  return rows[0] ? alarmRepo.rule(sql, rows[0].id) : undefined;
}

type Verdict = Parameters<AlarmService['judged']>[3][number];

/**
 * Judges every tenant's stations under each warning and raises or clears their alarms through
 * the alarm service (records, bells, notices, live pushes as any alarm). Idempotent: a level
 * already open stays one record; judging again changes nothing.
 */
export async function judgeStationWarnings(
  deps: { db: Database; alarms: AlarmService },
  warnings: readonly StationWarning[],
  now = new Date(),
): Promise<{ raised: number; cleared: number; tenants: number }> {
  const kinds = [...new Set(warnings.flatMap((warning) => warning.kinds))];
  const tenants = await deps.db.system((sql) =>
    sql.query<{ tenant_id: string; tenant_code: string }>(
      `SELECT DISTINCT d.tenant_id::text, t.tenant_code
         FROM iot_device d JOIN iot_product p ON p.id = d.product_id
         JOIN tenant t ON t.id = d.tenant_id
        WHERE p.device_kind = ANY($1::text[])`,
      [kinds],
    ),
  );
  let raised = 0;
  let cleared = 0;
  for (const tenant of tenants.rows) {
    const judged = await deps.db.tenant(tenant.tenant_id, async (sql) => {
      const out: Array<{ rule: AlarmRuleSpec; verdicts: Verdict[] }> = [];
      for (const warning of warnings) {
        const { rows: stations } = await sql.query<{ id: string }>(
          `SELECT d.id::text FROM iot_device d JOIN iot_product p ON p.id = d.product_id
            WHERE p.device_kind = ANY($1::text[]) ORDER BY d.id`,
          [warning.kinds],
        );
        if (stations.length === 0) continue;
        const judgements = await warning.judge(
          sql,
          stations.map((station) => station.id),
          now,
        );
        for (const level of ALARM_LEVELS) {
          const name = warning.rules[level];
          if (!name) continue;
          const rule = await levelRule(sql, tenant.tenant_id, warning, level, name);
          if (!rule) continue;
          const verdicts: Verdict[] = [];
          for (const [deviceId, judgement] of judgements) {
            if (judgement?.level === level)
              verdicts.push({
                deviceId,
                state: 'breach',
                propertyKey: judgement.propertyKey,
                value: judgement.value,
                threshold: judgement.threshold,
                at: judgement.at,
              });
            else
              verdicts.push({
                deviceId,
                state: 'clear',
                value: judgement?.value ?? null,
                threshold: null,
                at: now,
              });
          }
          out.push({ rule, verdicts });
        }
      }
      return out;
    });
    for (const { rule, verdicts } of judged) {
      const done = await deps.alarms.judged(tenant.tenant_id, tenant.tenant_code, rule, verdicts);
      raised += done.raised;
      cleared += done.cleared;
    }
  }
  return { raised, cleared, tenants: tenants.rows.length };
}

/** The scheduler kind and key of the station warnings' check (one trigger, platform tenant). */
export const STATION_WARNINGS_CHECK = 'monitor.stationWarnings';
export const STATION_WARNINGS_KEY = 'monitor:station-warnings';
/** Every minute: a rain gauge reports every 5 minutes, and a storm warning must not wait. */
const EVERY_SECONDS = 60;

export function stationWarningsProcessor(
  deps: { db: Database; alarms: AlarmService },
  warnings: readonly StationWarning[],
): Processor {
  return async (run) => {
    const result = await judgeStationWarnings(deps, warnings, new Date());
    return { result: { decision: 'checked', at: run.fireAt, ...result } };
  };
}

/**
 * Registers the station warnings' check on the scheduler core (every node, the same) and makes
 * sure its trigger exists: judged every minute by one node, so time passing clears a rainstorm
 * warning even when a station falls silent. Its runs are forgotten after a day (the alarms are
 * the history).
 */
export function registerStationWarnings(
  app: FastifyInstance,
  deps: { db: Database },
  warnings: readonly StationWarning[],
): void {
  app.scheduler.registerProcessor(
    STATION_WARNINGS_CHECK,
    stationWarningsProcessor({ db: deps.db, alarms: app.alarms }, warnings),
    { keepRunsDays: 1 },
  );
  ensurePlatformCheck(app, deps.db, {
    kind: STATION_WARNINGS_CHECK,
    key: STATION_WARNINGS_KEY,
    everySeconds: EVERY_SECONDS,
    // The first check at once: a warning standing when the server starts is not kept waiting.
    atOnce: true,
    maxAttempts: 2,
  });
}
