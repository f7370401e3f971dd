import type { Database } from '../db/database';

/**
 * Tables a refused or read-only request may still write, by design: the session's last-seen
 * time and audit rows of what was tried (login and operation logs), and rate-limit counters.
 * Everything else must be byte-for-byte the same after a request that was refused.
 */
export const BOOKKEEPING_TABLES = new Set([
  'user_session',
  'login_log',
  'operation_log',
  'rate_limit',
]);

/**
 * Rows the server writes on its own clock whoever calls, left out of every table's fingerprint:
 * the platform tenant's recurring checks (drought, station warnings, runoff events: one trigger
 * each, going through every tenant) and their runs. A request never writes the platform
 * tenant's scheduler rows, so a tenant's triggers and runs are still compared.
 */
const BACKGROUND_ROWS: Record<string, string> = {
  scheduler_trigger: 'tenant_id NOT IN (SELECT id FROM tenant WHERE is_platform)',
  scheduler_run: 'tenant_id NOT IN (SELECT id FROM tenant WHERE is_platform)',
  // The server nodes' heartbeats (the job scheduler's registry), every few seconds.
  scheduler_node: 'false',
};

/**
 * Pauses the demo tenants' scheduled jobs and workflows (they fire on their own clock: an hourly
 * rollup firing while a request is probed would look like that request's write). For suites
 * that fingerprint the database around requests.
 */
export async function pauseScheduledJobs(db: Database): Promise<void> {
  await db.system(async (sql) => {
    await sql.query('UPDATE job_info SET status = 0');
    await sql.query('UPDATE workflow_info SET status = 0');
    await sql.query(
      `UPDATE scheduler_trigger SET state = 'cancelled', lease_owner = NULL, lease_until = NULL
        WHERE kind IN ('job.fire', 'workflow.fire') AND state IN ('waiting', 'running')`,
    );
  });
}

/** Per table: row count and a hash of every row's text, order-independent. */
export type Fingerprint = Record<string, { rows: number; hash: string }>;

/**
 * Reads a fingerprint of every table in the public schema (as the system, past row-level
 * security), so a suite can prove a request changed nothing: take one before and one after,
 * and compare with `changedTables`.
 */
export async function fingerprint(
  db: Database,
  skip: ReadonlySet<string> = BOOKKEEPING_TABLES,
): Promise<Fingerprint> {
  return db.system(async (sql) => {
    const { rows: tables } = await sql.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition
        ORDER BY c.relname`,
    );
    const result: Fingerprint = {};
    for (const { name } of tables) {
      if (skip.has(name)) continue;
      // md5 of each row's text, then of the sorted list: independent of physical row order.
      const { rows } = await sql.query<{ rows: number; hash: string | null }>(
        `SELECT count(*)::int AS rows,
                md5(string_agg(md5(t::text), '' ORDER BY md5(t::text))) AS hash
           FROM "${name}" t${BACKGROUND_ROWS[name] ? ` WHERE ${BACKGROUND_ROWS[name]}` : ''}`,
      );
      result[name] = { rows: rows[0]!.rows, hash: rows[0]!.hash ?? '' };
    }
    return result;
  });
}

/** Names of the tables whose rows differ between two fingerprints. */
export function changedTables(before: Fingerprint, after: Fingerprint): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names]
    .filter((name) => {
      const a = before[name];
      const b = after[name];
      return !a || !b || a.rows !== b.rows || a.hash !== b.hash;
    })
    .sort();
}
