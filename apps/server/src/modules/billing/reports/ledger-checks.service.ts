import type { LedgerCheck, LedgerChecks } from '@shuili/contract';
import type { Database, Sql } from '../../../db/database';
import type { AuthContext } from '../../../http/request-context';

const SAMPLES = 10;

/**
 * The ledger's own invariants checked over a tenant's whole ledger, as an auditor would rather
 * than trusting the triggers that should have held them: debits equal credits over the ledger
 * and per transaction, each balance-carrying account's postings numbered 1, 2, 3... with each
 * balance_after the previous plus the posting (so the last one equals the account's sums), and
 * each hold ended at most once.
 */
export class LedgerChecksService {
  constructor(private readonly db: Database) {}

  checks(auth: AuthContext): Promise<LedgerChecks> {
    return this.db.tenant(auth, (sql) => this.run(sql, auth.tenantId));
  }

  async run(sql: Sql, tenantId: string): Promise<LedgerChecks> {
    const { rows: sums } = await sql.query<{
      debits: number;
      credits: number;
      postings: number;
      transactions: number;
    }>(
      `SELECT coalesce(sum(debit_fen), 0)::float8 AS debits,
              coalesce(sum(credit_fen), 0)::float8 AS credits, count(*)::int AS postings,
              (SELECT count(*)::int FROM billing_txn WHERE tenant_id = $1) AS transactions
         FROM billing_posting WHERE tenant_id = $1`,
      [tenantId],
    );
    const { debits, credits, postings, transactions } = sums[0]!;
    const unbalanced = await ids(
      sql,
      `SELECT t.id FROM billing_txn t
         LEFT JOIN billing_posting p ON p.txn_id = t.id
        WHERE t.tenant_id = $1
        GROUP BY t.id
       HAVING coalesce(sum(p.debit_fen), 0) <> coalesce(sum(p.credit_fen), 0)
           OR coalesce(sum(p.debit_fen), 0) = 0`,
      tenantId,
    );
    // Each posting against the one before it on its account, in the account's order.
    const chain = `SELECT account_id, account_seq, balance_after_fen,
                          row_number() OVER w AS position,
                          sum(credit_fen - debit_fen) OVER w AS running
                     FROM billing_posting
                    WHERE tenant_id = $1 AND account_seq IS NOT NULL
                   WINDOW w AS (PARTITION BY account_id ORDER BY account_seq)`;
    const brokenChain = await ids(
      sql,
      `SELECT DISTINCT account_id AS id FROM (${chain}) c WHERE c.balance_after_fen <> c.running`,
      tenantId,
    );
    const brokenSequence = await ids(
      sql,
      `SELECT DISTINCT account_id AS id FROM (${chain}) c WHERE c.account_seq <> c.position`,
      tenantId,
    );
    const endedTwice = await ids(
      sql,
      `SELECT hold_txn_id AS id FROM billing_txn WHERE tenant_id = $1 AND hold_txn_id IS NOT NULL
        GROUP BY hold_txn_id HAVING count(*) > 1`,
      tenantId,
    );
    const check = (name: LedgerCheck['check'], found: Found, extra: Partial<LedgerCheck> = {}) => ({
      check: name,
      passed: found.count === 0,
      failures: found.count,
      samples: found.samples,
      ...extra,
    });
    return {
      checkedAt: new Date().toISOString(),
      transactions,
      postings,
      checks: [
        {
          check: 'ledgerBalanced',
          passed: debits === credits,
          failures: debits === credits ? 0 : 1,
          samples: [],
          debitsFen: debits,
          creditsFen: credits,
        },
        check('transactionsBalanced', unbalanced),
        check('balanceChain', brokenChain),
        check('accountSequence', brokenSequence),
        check('holdsEndedOnce', endedTwice),
      ],
    };
  }
}

interface Found {
  count: number;
  samples: string[];
}

/** How many ids a query finds, and the first few of them. */
async function ids(sql: Sql, query: string, tenantId: string): Promise<Found> {
  const { rows } = await sql.query<{ id: string; total: number }>(
    `SELECT id::text, count(*) OVER ()::int AS total FROM (${query}) found ORDER BY id LIMIT ${SAMPLES}`,
    [tenantId],
  );
  return { count: rows[0]?.total ?? 0, samples: rows.map((row) => row.id) };
}
