import { signIn } from '@shuili/test-support/api-client';
import type { TestServer } from '@shuili/test-support/test-server';
import type { Sql } from '../../../db/database';

/** What the whole ledger of a tenant (or every tenant) adds up to, read straight from the tables. */
export interface LedgerAudit {
  txns: number;
  postings: number;
  /** Transactions whose debits differ from their credits (or that have no postings). */
  unbalanced: string[];
  totalDebits: number;
  totalCredits: number;
  /** Postings that left a household or hold account below zero. */
  negative: number;
  /**
   * Household and hold accounts whose postings do not chain: a balance_after that is not the
   * previous one plus this posting's credit minus its debit, or a gap in the sequence.
   */
  brokenChains: string[];
}

/** Audits the ledger (as the schema owner: every tenant unless one is given). */
export async function auditLedger(sql: Sql, tenantId?: string): Promise<LedgerAudit> {
  const where = tenantId ? 'WHERE tenant_id = $1' : '';
  const params = tenantId ? [tenantId] : [];
  const count = async (table: string) =>
    Number(
      (await sql.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${table} ${where}`, params))
        .rows[0]!.n,
    );
  const { rows: unbalanced } = await sql.query<{ id: string }>(
    `SELECT t.id::text FROM billing_txn t
       LEFT JOIN billing_posting p ON p.txn_id = t.id
      ${tenantId ? 'WHERE t.tenant_id = $1' : ''}
      GROUP BY t.id
     HAVING coalesce(sum(p.debit_fen), 0) <> coalesce(sum(p.credit_fen), 0)
         OR coalesce(sum(p.debit_fen), 0) = 0`,
    params,
  );
  const { rows: totals } = await sql.query<{ debits: string; credits: string; negative: string }>(
    `SELECT coalesce(sum(debit_fen), 0)::text AS debits, coalesce(sum(credit_fen), 0)::text AS credits,
            count(*) FILTER (WHERE balance_after_fen < 0)::text AS negative
       FROM billing_posting ${where}`,
    params,
  );
  const { rows: broken } = await sql.query<{ id: string }>(
    `SELECT DISTINCT account_id::text AS id FROM (
       SELECT account_id, account_seq, balance_after_fen, credit_fen - debit_fen AS change,
              lag(balance_after_fen, 1, 0::bigint) OVER w AS previous,
              row_number() OVER w AS n
         FROM billing_posting
        WHERE account_seq IS NOT NULL ${tenantId ? 'AND tenant_id = $1' : ''}
       WINDOW w AS (PARTITION BY account_id ORDER BY account_seq)) chain
      WHERE balance_after_fen <> previous + change OR account_seq <> n`,
    params,
  );
  return {
    txns: await count('billing_txn'),
    postings: await count('billing_posting'),
    unbalanced: unbalanced.map((row) => row.id),
    totalDebits: Number(totals[0]!.debits),
    totalCredits: Number(totals[0]!.credits),
    negative: Number(totals[0]!.negative),
    brokenChains: broken.map((row) => row.id),
  };
}

/** The audit of a sound ledger (with its own counts). */
export function soundAudit(audit: LedgerAudit): LedgerAudit {
  return {
    ...audit,
    unbalanced: [],
    totalCredits: audit.totalDebits,
    negative: 0,
    brokenChains: [],
  };
}

/**
 * Households of a tenant for ledger tests (the households' entity table, billing_household),
 * inserted as the schema owner with only what the ledger needs: a name and a village.
 */
export async function insertHouseholds(
  sql: Sql,
  tenantId: string,
  count: number,
  village = 'Dongzhuang',
): Promise<string[]> {
  const { rows } = await sql.query<{ id: string }>(
    `INSERT INTO billing_household (tenant_id, household_name, village)
     SELECT $1, 'Ledger household ' || n, $3 FROM generate_series(1, $2) AS n
     RETURNING id::text`,
    [tenantId, count, village],
  );
  return rows.map((row) => row.id);
}

/** The demo's two people at the desk: signed in, with their user ids, and a fresh household. */
export interface DemoDesk {
  tenantId: string;
  admin: string;
  cashier: string;
  adminId: string;
  cashierId: string;
  householdId: string;
}

export async function demoDesk(server: TestServer): Promise<DemoDesk> {
  const admin = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
  const cashier = (await signIn(server, 'demo', 'cashier', 'cashier123')).access_token;
  const { rows } = await server.db.system((sql) =>
    sql.query<{ tenant: string; admin: string; cashier: string }>(
      `SELECT t.id::text AS tenant, a.id::text AS admin, c.id::text AS cashier FROM tenant t
         JOIN sys_user a ON a.tenant_id = t.id AND a.username = 'admin'
         JOIN sys_user c ON c.tenant_id = t.id AND c.username = 'cashier'
        WHERE t.tenant_code = 'demo'`,
    ),
  );
  const tenantId = rows[0]!.tenant;
  const [householdId] = await server.db.system((sql) => insertHouseholds(sql, tenantId, 1));
  return {
    tenantId,
    admin,
    cashier,
    adminId: rows[0]!.admin,
    cashierId: rows[0]!.cashier,
    householdId: householdId!,
  };
}
