import type { Sql } from '../../../db/database';
import type { JobRunContext } from '../job-processor';

/**
 * What an instance already did, for processors idempotent by instance id (a bell notice, an
 * e-mail): recorded in the scheduler's effect table (migration 013) under the instance's
 * negated id — scheduler runs have positive ids, so the two never meet — and the instance's
 * key with what was done. Claimed in the transaction that does it; a second run of the instance
 * finds the claim and does nothing again.
 */
const effectOf = (ctx: JobRunContext, what: string) => `${ctx.idempotencyKey}|${what}`;
const runIdOf = (ctx: JobRunContext) => `-${ctx.instanceId}`;

/** Claims an effect for the instance; answers false when an earlier run already has. */
export async function claimEffect(sql: Sql, ctx: JobRunContext, what: string): Promise<boolean> {
  const { rows } = await sql.query(
    `INSERT INTO scheduler_run_effect (tenant_id, run_id, effect) VALUES ($1, $2::bigint, $3)
     ON CONFLICT DO NOTHING RETURNING 1`,
    [ctx.tenantId, runIdOf(ctx), effectOf(ctx, what)],
  );
  return rows.length > 0;
}

/** Lets a claim go when what it claimed failed (an e-mail not sent), so a retry does it. */
export async function releaseEffect(ctx: JobRunContext, what: string): Promise<void> {
  await ctx.db.tenant(ctx.tenantId, (sql) =>
    sql.query('DELETE FROM scheduler_run_effect WHERE run_id = $1::bigint AND effect = $2', [
      runIdOf(ctx),
      effectOf(ctx, what),
    ]),
  );
}

/** Forgets the effects of deleted instances (the retention sweep). */
export async function forgetEffects(sql: Sql, instanceIds: readonly string[]): Promise<void> {
  if (instanceIds.length === 0) return;
  await sql.query('DELETE FROM scheduler_run_effect WHERE run_id = ANY($1::bigint[])', [
    instanceIds.map((id) => `-${id}`),
  ]);
}
