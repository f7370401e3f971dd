import type { FastifyInstance } from 'fastify';
import type { Database, Sql } from '../../../db/database';
import type { AlarmService } from '../../iot/alarm/alarm.service';
import type { AlarmRuleSpec } from '../../iot/alarm/alarm-evaluator';
import { alarmRepo } from '../../iot/alarm/alarm.repo';
import { ensureRecurring, type Processor } from '../../scheduler/scheduler.service';
import { areaSetting } from '../settings/area-setting.service';

/** The scheduler kind and key of the drought check (one trigger, of the platform tenant). */
export const DROUGHT_CHECK = 'soilMoisture.droughtCheck';
const DROUGHT_CHECK_KEY = 'soil-moisture:drought-check';
const EVERY_SECONDS = 600;

/** The reading judged: moisture at 20 cm. */
export const DROUGHT_KEY = 'soilMoisture20';
/** The tenant's rule the drought alarms are recorded under (created when first needed). */
export const DROUGHT_RULE_NAME = 'Drought warning (20 cm)';

/**
 * The tenant's drought rule: an alarm rule of no product and no device, so the per-reading
 * evaluation never applies it; the drought check raises and clears its alarms.
 */
async function droughtRule(sql: Sql, tenantId: string): Promise<AlarmRuleSpec | undefined> {
  await sql.query(
    `INSERT INTO iot_alarm_rule (tenant_id, rule_name, property_key, kind, hysteresis, level, status)
     SELECT $1, $2, $3, 'below', 0, 'orange', 1
      WHERE NOT EXISTS (SELECT 1 FROM iot_alarm_rule WHERE rule_name = $2)
     ON CONFLICT DO NOTHING`,
    [tenantId, DROUGHT_RULE_NAME, DROUGHT_KEY],
  );
  const { rows } = await sql.query<{ id: string }>(
    `SELECT id::text FROM iot_alarm_rule WHERE rule_name = $1 AND status = 1`,
    [DROUGHT_RULE_NAME],
  );
  return rows[0] ? alarmRepo.rule(sql, rows[0].id) : undefined;
}

interface StationDryness {
  device_id: string;
  latest: number | null;
  latest_at: Date | null;
  /** The first reading of the dry spell going on now (after the last one at or above). */
  dry_since: Date | null;
}

/** Each soil station's latest 20 cm moisture and since when it has stayed below `threshold`. */
async function dryness(sql: Sql, deviceId: string, threshold: number): Promise<StationDryness> {
  const { rows } = await sql.query<StationDryness>(
    `WITH wet AS (
       SELECT max(ts) AS at FROM iot_telemetry
        WHERE device_id = $1 AND key = $2 AND value >= $3 AND ts > now() - interval '31 days')
     SELECT $1::text AS device_id, l.value AS latest, l.ts AS latest_at,
            (SELECT min(t.ts) FROM iot_telemetry t, wet
              WHERE t.device_id = $1 AND t.key = $2 AND t.ts > now() - interval '31 days'
                AND (wet.at IS NULL OR t.ts > wet.at)) AS dry_since
       FROM (SELECT 1) one
       LEFT JOIN iot_telemetry_latest l ON l.device_id = $1 AND l.key = $2`,
    [deviceId, DROUGHT_KEY, threshold],
  );
  return rows[0]!;
}

/**
 * The drought check (every 10 minutes, one node): a soil station whose 20 cm moisture has stayed
 * below its droughtThreshold for droughtHours (its soil-moisture settings) raises the tenant's
 * drought alarm; one back at or above the threshold clears it.
 */
export function droughtCheckProcessor(deps: { db: Database; alarms: AlarmService }): Processor {
  return async () => {
    const tenants = await deps.db.system((sql) =>
      sql.query<{ tenant_id: string; tenant_code: string }>(
        `SELECT DISTINCT d.tenant_id::text, t.tenant_code
           FROM iot_device d JOIN iot_product p ON p.id = d.product_id
           JOIN tenant t ON t.id = d.tenant_id
          WHERE p.device_kind = 'soil_moisture'`,
      ),
    );
    let raised = 0;
    let cleared = 0;
    for (const tenant of tenants.rows) {
      const judged = await deps.db.tenant(tenant.tenant_id, async (sql) => {
        const rule = await droughtRule(sql, tenant.tenant_id);
        if (!rule) return undefined;
        const { rows: stations } = await sql.query<{ id: string }>(
          `SELECT d.id::text FROM iot_device d JOIN iot_product p ON p.id = d.product_id
            WHERE p.device_kind = 'soil_moisture'`,
        );
        const verdicts = [];
        for (const station of stations) {
          const threshold = Number(
            await areaSetting(sql, station.id, 'soilMoisture', 'droughtThreshold'),
          );
          const hours = Number(await areaSetting(sql, station.id, 'soilMoisture', 'droughtHours'));
          const state = await dryness(sql, station.id, threshold);
          if (state.latest === null || !state.latest_at) continue;
          const dryFor = state.dry_since ? Date.now() - state.dry_since.getTime() : 0;
          if (state.latest >= threshold)
            verdicts.push({
              deviceId: station.id,
              state: 'clear' as const,
              value: state.latest,
              threshold,
              at: state.latest_at,
            });
          else if (dryFor >= hours * 3600_000)
            verdicts.push({
              deviceId: station.id,
              state: 'breach' as const,
              value: state.latest,
              threshold,
              at: state.latest_at,
            });
        }
        return { rule, verdicts };
      });
      if (!judged) continue;
      await deps.alarms.judged(tenant.tenant_id, tenant.tenant_code, judged.rule, judged.verdicts);
      raised += judged.verdicts.filter((one) => one.state === 'breach').length;
      cleared += judged.verdicts.filter((one) => one.state === 'clear').length;
    }
    return { result: { decision: 'checked', tenants: tenants.rows.length, raised, cleared } };
  };
}

/** Registers the drought check and makes sure its trigger exists (every node, at start). */
export function registerDroughtWarning(app: FastifyInstance, deps: { db: Database }): void {
  app.scheduler.registerProcessor(
    DROUGHT_CHECK,
    droughtCheckProcessor({ db: deps.db, alarms: app.alarms }),
  );
  app.addHook('onReady', async () => {
    await deps.db.system(async (sql) => {
      const { rows } = await sql.query<{ id: string }>(
        'SELECT id::text FROM tenant WHERE is_platform ORDER BY id LIMIT 1',
      );
      if (!rows[0]) return;
      await ensureRecurring(sql, {
        tenantId: rows[0].id,
        kind: DROUGHT_CHECK,
        key: DROUGHT_CHECK_KEY,
        recurrence: { type: 'interval', seconds: EVERY_SECONDS },
        maxAttempts: 2,
      });
    });
  });
}

export { DROUGHT_CHECK_KEY };
