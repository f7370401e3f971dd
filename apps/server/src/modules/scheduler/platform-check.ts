import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/database';
import { ensureRecurring, type ScheduleRecurringInput } from './scheduler.service';

/**
 * A check every tenant shares (drought, station warnings, runoff detection): one recurring
 * trigger of the platform tenant whose processor goes through the tenants itself, made sure of
 * by every node when it is ready (it exists once: ensureRecurring inserts only when absent).
 * `atOnce`: the first occurrence is due at start, not an interval later.
 */
export function ensurePlatformCheck(
  app: FastifyInstance,
  db: Database,
  check: Omit<ScheduleRecurringInput, 'tenantId' | 'recurrence' | 'after'> & {
    everySeconds: number;
    atOnce?: boolean;
  },
): void {
  const { everySeconds, atOnce, ...trigger } = check;
  app.addHook('onReady', async () => {
    await db.system(async (sql) => {
      const { rows } = await sql.query<{ id: string }>(
        'SELECT id::text FROM tenant WHERE is_platform ORDER BY id LIMIT 1',
      );
      if (!rows[0]) return;
      await ensureRecurring(sql, {
        ...trigger,
        tenantId: rows[0].id,
        recurrence: { type: 'interval', seconds: everySeconds },
        ...(atOnce ? { after: new Date(Date.now() - everySeconds * 1000) } : {}),
      });
    });
  });
}
