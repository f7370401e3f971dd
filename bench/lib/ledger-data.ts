// The ledger benchmark's data: a database migrated and seeded by the server's own code, bench
// households spread over villages in the households' table (billing_household), and a year of
// ledger entries for them written with set-based SQL: every household alternates a cash
// recharge of 50 yuan with nine consumptions of 5 yuan, so each balance chain (account_seq,
// balance_after_fen) is known in closed form and never goes below zero.
import { loadConfig } from '../../apps/server/src/config';
import type { Database } from '../../apps/server/src/db/database';
import { migrate } from '../../apps/server/src/db/migrate';
import { seed } from '../../apps/server/src/db/seed';

export interface LedgerPlan {
  households: number;
  villages: number;
  /** Transactions (each two postings) in all. */
  entries: number;
}

export interface PreparedLedger {
  tenantId: string;
  cashierId: string;
  householdIds: string[];
  entries: number;
  postings: number;
  loadSeconds: number;
  analyseSeconds: number;
}

/** The year the entries are spread over (the statistics' year). */
export const LEDGER_YEAR = { start: '2025-01-01', end: '2025-12-31' };

const RECHARGE_FEN = 5_000;
const CONSUMPTION_FEN = 500;

/**
 * Migrates and seeds `db`, adds the plan's households to demo and writes their entries. The load
 * runs with triggers off (session_replication_role = replica: the append-only and balance
 * triggers, and the foreign keys' checks), as a bulk import does; the entries are made to hold
 * every invariant, which the benchmark checks afterwards with the ledger audit.
 */
export async function prepareLedger(db: Database, plan: LedgerPlan): Promise<PreparedLedger> {
  await migrate(db);
  await seed(db, loadConfig({ demoHistoryDays: 0 }));
  const perHousehold = Math.max(1, Math.round(plan.entries / plan.households));
  const started = performance.now();
  const ids = await db.system(async (sql) => {
    const { rows } = await sql.query<{ tenant: string; cashier: string }>(
      `SELECT t.id::text AS tenant, u.id::text AS cashier FROM tenant t
         JOIN sys_user u ON u.tenant_id = t.id AND u.username = 'admin'
        WHERE t.tenant_code = 'demo'`,
    );
    const { tenant, cashier } = rows[0]!;
    // A bulk load: longer than the pool's statement timeout allows a request.
    await sql.query(`SET LOCAL statement_timeout = 0`);
    await sql.query(`SET LOCAL session_replication_role = replica`);
    const households = await sql.query<{ id: string }>(
      `INSERT INTO billing_household (tenant_id, household_name, village, irrigated_area)
       SELECT $1, 'Bench household ' || n, 'Bench village ' || lpad((n % $3)::text, 3, '0'),
              5 + n % 20
         FROM generate_series(1, $2) AS n
       RETURNING id::text`,
      [tenant, plan.households, plan.villages],
    );
    await sql.query(
      `INSERT INTO billing_account (tenant_id, kind, owner_id)
       SELECT $1, 'household', h.id FROM billing_household h
        WHERE h.tenant_id = $1 AND h.village LIKE 'Bench village %'
       UNION ALL SELECT $1, 'cash', $2::bigint
       UNION ALL SELECT $1, 'revenue', NULL
       ON CONFLICT DO NOTHING`,
      [tenant, cashier],
    );
    // In time order, so ids follow time as they do in a real ledger; each household's entries
    // over the year, the households' moments a little apart.
    await sql.query(
      `INSERT INTO billing_txn (tenant_id, idempotency_key, request_hash, kind, amount_fen,
         household_id, cashier_id, method, created_at, updated_at, created_by, updated_by)
       SELECT $1, 'bench-' || h.id || '-' || j, 'bench',
              CASE WHEN j % 10 = 1 THEN 'recharge' ELSE 'consumption' END,
              CASE WHEN j % 10 = 1 THEN ${RECHARGE_FEN} ELSE ${CONSUMPTION_FEN} END,
              h.id, CASE WHEN j % 10 = 1 THEN $2::bigint END,
              CASE WHEN j % 10 = 1 THEN 'cash' END, at, at, $2::bigint, $2::bigint
         FROM billing_household h CROSS JOIN generate_series(1, $3) AS j
        CROSS JOIN LATERAL (SELECT timestamptz '2025-01-01 00:00:00+08'
                     + ((j - 1) * 364.0 / $3 + (h.id % 997) / 997.0) * interval '1 day' AS at) m
        WHERE h.tenant_id = $1 AND h.village LIKE 'Bench village %'
        ORDER BY at`,
      [tenant, cashier, perHousehold],
    );
    // Two postings each: the household's side with its sequence and balance after (j-th entry:
    // r recharges and j - r consumptions so far), and the cash drawer's or revenue's side.
    await sql.query(
      `WITH t AS (
         SELECT t.id, t.kind, t.amount_fen, t.household_id, t.created_at,
                row_number() OVER (PARTITION BY t.household_id ORDER BY t.id) AS j
           FROM billing_txn t
          WHERE t.tenant_id = $1 AND t.idempotency_key LIKE 'bench-%')
       INSERT INTO billing_posting (tenant_id, txn_id, account_id, account_kind, debit_fen,
         credit_fen, account_seq, balance_after_fen, created_at)
       SELECT $1, t.id, side.account_id, side.kind, side.debit, side.credit, side.seq,
              side.balance, t.created_at
         FROM t
         JOIN billing_account ha ON ha.tenant_id = $1 AND ha.kind = 'household'
                                AND ha.owner_id = t.household_id
        CROSS JOIN LATERAL (SELECT (t.j - 1) / 10 + 1 AS r) c
        CROSS JOIN LATERAL (VALUES
          (ha.id, 'household',
           CASE WHEN t.kind = 'consumption' THEN t.amount_fen ELSE 0 END,
           CASE WHEN t.kind = 'recharge' THEN t.amount_fen ELSE 0 END,
           t.j, ${RECHARGE_FEN} * c.r - ${CONSUMPTION_FEN} * (t.j - c.r)),
          ((SELECT id FROM billing_account
             WHERE tenant_id = $1 AND kind = CASE WHEN t.kind = 'recharge' THEN 'cash' ELSE 'revenue' END
               AND owner_id IS NOT DISTINCT FROM CASE WHEN t.kind = 'recharge' THEN $2::bigint END),
           CASE WHEN t.kind = 'recharge' THEN 'cash' ELSE 'revenue' END,
           CASE WHEN t.kind = 'recharge' THEN t.amount_fen ELSE 0 END,
           CASE WHEN t.kind = 'consumption' THEN t.amount_fen ELSE 0 END,
           NULL::bigint, NULL::bigint)
        ) AS side(account_id, kind, debit, credit, seq, balance)
        ORDER BY t.id`,
      [tenant, cashier],
    );
    return { tenant, cashier, householdIds: households.rows.map((row) => row.id) };
  });
  const loadSeconds = (performance.now() - started) / 1000;
  const analysing = performance.now();
  // As autovacuum would: statistics, and on PostgreSQL the visibility map that lets the balance
  // and the statistics read their indexes only.
  await db.system(async (sql) => {
    await sql.query(`SET LOCAL statement_timeout = 0`);
    await sql.query('ANALYZE billing_household, billing_txn, billing_posting');
  });
  const counts = await db.system((sql) =>
    sql.query<{ txns: string; postings: string }>(
      `SELECT count(DISTINCT t.id)::text AS txns, count(*)::text AS postings
         FROM billing_txn t JOIN billing_posting p ON p.txn_id = t.id
        WHERE t.tenant_id = $1 AND t.idempotency_key LIKE 'bench-%'`,
      [ids.tenant],
    ),
  );
  return {
    tenantId: ids.tenant,
    cashierId: ids.cashier,
    householdIds: ids.householdIds,
    entries: Number(counts.rows[0]!.txns),
    postings: Number(counts.rows[0]!.postings),
    loadSeconds,
    analyseSeconds: (performance.now() - analysing) / 1000,
  };
}
