import type { FastifyInstance } from 'fastify';
import type { Database } from '../../../db/database';
import { tenantTimeZone } from '../../iot/telemetry/telemetry-settings';
import { ensurePlatformCheck } from '../../scheduler/platform-check';
import type { Processor } from '../../scheduler/scheduler.service';
import { sumClosedDays } from './stat-days';

export const BILLING_STAT_DAYS = 'billing.statDays';
export const BILLING_STAT_DAYS_KEY = 'billing:stat-days';
const EVERY_SECONDS = 3600;

/**
 * Sums every tenant's closed days ahead of the first statistics query that would have to
 * (stat-days.ts): from its first ledger entry to two days ago, a tenant transaction each. Days
 * already summed are skipped, so an hourly run costs one day's entries a day.
 */
export function statDaysProcessor(deps: { db: Database }): Processor {
  return async () => {
    const { rows: tenants } = await deps.db.system((sql) =>
      sql.query<{ id: string }>(
        `SELECT t.id::text FROM tenant t
          WHERE EXISTS (SELECT 1 FROM billing_txn x WHERE x.tenant_id = t.id)`,
      ),
    );
    let summed = 0;
    for (const { id } of tenants)
      summed += await deps.db.tenant(id, async (sql) => {
        const timeZone = await tenantTimeZone(sql);
        const { rows } = await sql.query<{ first: string; today: string }>(
          `SELECT (min(created_at) AT TIME ZONE $2)::date::text AS first,
                  (now() AT TIME ZONE $2)::date::text AS today
             FROM billing_txn WHERE tenant_id = $1`,
          [id, timeZone],
        );
        const { first, today } = rows[0]!;
        return (await sumClosedDays(sql, id, timeZone, first, today)) ? 1 : 0;
      });
    return { result: { decision: 'summed', tenants: summed } };
  };
}

/** Registers the hourly summing of closed days; its trigger is made sure of at every start. */
export function registerStatDays(app: FastifyInstance, deps: { db: Database }): void {
  app.scheduler.registerProcessor(BILLING_STAT_DAYS, statDaysProcessor(deps));
  ensurePlatformCheck(app, deps.db, {
    kind: BILLING_STAT_DAYS,
    key: BILLING_STAT_DAYS_KEY,
    everySeconds: EVERY_SECONDS,
    maxAttempts: 2,
  });
}
