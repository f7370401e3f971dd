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
};

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
