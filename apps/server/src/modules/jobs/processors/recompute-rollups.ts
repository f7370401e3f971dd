import type { JobProcessor, JobRunContext } from '../job-processor';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC days (YYYY-MM-DD) of the last `days` days, today included, oldest first. */
export function lastDays(days: number, now = new Date()): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, index) =>
    new Date(today - (days - 1 - index) * DAY_MS).toISOString().slice(0, 10),
  );
}

/**
 * Rebuilds one UTC day of the tenant's hourly rollup (migrations 006 and 015) from the raw
 * readings, in one transaction: the day's hours are deleted and counted again with the
 * aggregates the insert trigger keeps, so a rollup that drifted (a restore, a bulk load with
 * triggers off) is exact again. The rollup's hours are UTC hours, so its days are UTC days.
 * Idempotent: run twice, the same rows. Answers the hours written.
 */
async function recomputeDay(ctx: JobRunContext, day: string): Promise<number> {
  const from = new Date(`${day}T00:00:00Z`);
  const to = new Date(from.getTime() + DAY_MS);
  return ctx.db.tenant(ctx.tenantId, async (sql) => {
    await sql.query(
      'DELETE FROM iot_telemetry_hourly WHERE tenant_id = $1 AND hour >= $2 AND hour < $3',
      [ctx.tenantId, from, to],
    );
    const { rows } = await sql.query<{ n: number }>(
      `WITH written AS (
         INSERT INTO iot_telemetry_hourly
                (tenant_id, device_id, key, hour, n, sum, min, max,
                 first_ts, first_value, last_ts, last_value)
         SELECT tenant_id, device_id, key, date_trunc('hour', ts, 'UTC'),
                count(value), sum(value), min(value), max(value),
                min(ts) FILTER (WHERE value IS NOT NULL),
                (array_agg(value ORDER BY ts) FILTER (WHERE value IS NOT NULL))[1],
                max(ts) FILTER (WHERE value IS NOT NULL),
                (array_agg(value ORDER BY ts DESC) FILTER (WHERE value IS NOT NULL))[1]
           FROM iot_telemetry
          WHERE tenant_id = $1 AND ts >= $2 AND ts < $3
          GROUP BY 1, 2, 3, 4
          ORDER BY 1, 2, 3, 4
         RETURNING 1)
       SELECT count(*)::int AS n FROM written`,
      [ctx.tenantId, from, to],
    );
    return rows[0]!.n;
  });
}

/**
 * Recomputes the hourly rollups of the last `days` UTC days. Standalone: day after day,
 * stopping between days when the instance is stopped. Map / MapReduce: one sub-task a day,
 * spread across the nodes; reduce sums the hours written.
 */
export const recomputeRollupsProcessor: JobProcessor = {
  type: 'recomputeRollups',
  async run(ctx) {
    let hours = 0;
    const days = lastDays(Number(ctx.params.days));
    for (const day of days) {
      ctx.signal.throwIfAborted();
      const written = await recomputeDay(ctx, day);
      hours += written;
      await ctx.log(`${day}: ${written} hourly rollups`);
    }
    return {
      result: `${hours} hourly rollups recomputed over ${days.length} days`,
      context: { rollupHours: hours },
    };
  },
  async split(ctx) {
    return lastDays(Number(ctx.params.days)).map((day) => ({ name: day, payload: { day } }));
  },
  async runTask(ctx, task) {
    const day = String(task.payload.day);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new Error(`not a day: ${day}`);
    const written = await recomputeDay(ctx, day);
    await ctx.log(`${day}: ${written} hourly rollups`);
    return { result: String(written) };
  },
  async reduce(ctx, results) {
    const failed = results.filter((one) => !one.ok);
    const hours = results.reduce((sum, one) => sum + (one.ok ? Number(one.result) || 0 : 0), 0);
    await ctx.log(`${results.length - failed.length} of ${results.length} days recomputed`);
    const result = `${hours} hourly rollups recomputed over ${results.length - failed.length} days`;
    if (failed.length)
      throw new Error(`${result}; failed: ${failed.map((one) => one.name).join(', ')}`);
    return { result, context: { rollupHours: hours } };
  },
};
