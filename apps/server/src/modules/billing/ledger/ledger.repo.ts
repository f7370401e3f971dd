import type { LedgerMethod, LedgerTxnKind } from '@shuili/contract';
import type { Sql } from '../../../db/database';

/** The kinds of account (migration 019): household and hold accounts carry their balance. */
export type AccountKind = 'household' | 'hold' | 'cash' | 'online' | 'revenue' | 'arrears';

export const BALANCE_KINDS: ReadonlySet<AccountKind> = new Set(['household', 'hold']);

/** An account asked for by kind and owner (none for the tenant's own online and revenue). */
export interface AccountRef {
  kind: AccountKind;
  ownerId: string | null;
}

export interface Account extends AccountRef {
  id: string;
}

/** A txn row as the ledger reads it back. */
export interface TxnRow {
  id: string;
  kind: LedgerTxnKind;
  requestHash: string;
  amountFen: number;
  householdId: string | null;
  holdTxnId: string | null;
}

/** What a new txn row holds besides its tenant. */
export interface NewTxn {
  idempotencyKey: string;
  requestHash: string;
  kind: LedgerTxnKind;
  amountFen: number;
  householdId: string | null;
  cardId: string | null;
  deviceId: string | null;
  sessionId: string | null;
  cashierId: string | null;
  method: LedgerMethod | null;
  externalRef: string | null;
  holdTxnId: string | null;
  reversesTxnId: string | null;
  memo: string | null;
  createdBy: string | null;
}

/** One side of one account, with the balance after it for household and hold accounts. */
export interface NewPosting {
  account: Account;
  debitFen: number;
  creditFen: number;
  accountSeq: number | null;
  balanceAfterFen: number | null;
}

export interface PostingRow {
  accountId: string;
  kind: AccountKind;
  ownerId: string | null;
  debitFen: number;
  creditFen: number;
}

const TXN_COLUMNS = `id::text, kind, request_hash AS "requestHash", amount_fen::float8 AS "amountFen",
  household_id::text AS "householdId", hold_txn_id::text AS "holdTxnId"`;

const keyOf = (ref: AccountRef) => `${ref.kind}:${ref.ownerId ?? ''}`;

/** Each reference of a txn absent or the tenant's, given the parameters holding tenant and ids. */
const refChecks = (tenant: string, household: string, card: string, device: string) => ({
  household: `(${household}::bigint IS NULL OR EXISTS (SELECT 1 FROM billing_household
                 WHERE tenant_id = ${tenant}::bigint AND id = ${household}::bigint))`,
  card: `(${card}::bigint IS NULL OR EXISTS (SELECT 1 FROM billing_card
            WHERE tenant_id = ${tenant}::bigint AND id = ${card}::bigint))`,
  device: `(${device}::bigint IS NULL OR EXISTS (SELECT 1 FROM iot_device
              WHERE tenant_id = ${tenant}::bigint AND id = ${device}::bigint))`,
});
const REFS_EXIST = Object.values(refChecks('$1', '$6', '$7', '$8')).join(' AND ');
const REF_CHECKS = refChecks('$1', '$2', '$3', '$4');

/** The ledger's SQL (migration 019). Every call runs in the caller's transaction. */
export const ledgerRepo = {
  /**
   * Inserts a txn unless its tenant has one with the key already, or a household, card or
   * controller it names is not the tenant's; answers the new id, or null (then the caller tells
   * which: a key taken by a transaction that committed, waited for if it was under way, or
   * missingRef). One statement, and nothing refused by the database (a foreign key would abort
   * the caller's transaction): the caller's transaction stays usable.
   */
  async insertTxn(sql: Sql, tenantId: string, txn: NewTxn): Promise<string | null> {
    const { rows } = await sql.query<{ id: string }>(
      `INSERT INTO billing_txn (tenant_id, idempotency_key, request_hash, kind, amount_fen,
         household_id, card_id, controller_id, session_id, cashier_id, method, external_ref,
         hold_txn_id, reverses_txn_id, memo, created_by, updated_by)
       SELECT $1::bigint, $2::text, $3::text, $4::text, $5::bigint, $6::bigint, $7::bigint,
              $8::bigint, $9::bigint, $10::bigint, $11::text, $12::text, $13::bigint, $14::bigint,
              $15::text, $16::bigint, $16::bigint
        WHERE ${REFS_EXIST}
       ON CONFLICT (tenant_id, idempotency_key) DO NOTHING
       RETURNING id::text`,
      [
        tenantId,
        txn.idempotencyKey,
        txn.requestHash,
        txn.kind,
        txn.amountFen,
        txn.householdId,
        txn.cardId,
        txn.deviceId,
        txn.sessionId,
        txn.cashierId,
        txn.method,
        txn.externalRef,
        txn.holdTxnId,
        txn.reversesTxnId,
        txn.memo,
        txn.createdBy,
      ],
    );
    return rows[0]?.id ?? null;
  },

  /** The first reference of a txn that is not the tenant's (household, card, controller). */
  async missingRef(
    sql: Sql,
    tenantId: string,
    refs: { householdId: string | null; cardId: string | null; deviceId: string | null },
  ): Promise<'householdId' | 'cardId' | 'deviceId' | null> {
    const { rows } = await sql.query<{ household: boolean; card: boolean; device: boolean }>(
      `SELECT ${REF_CHECKS.household} AS household, ${REF_CHECKS.card} AS card,
              ${REF_CHECKS.device} AS device`,
      [tenantId, refs.householdId, refs.cardId, refs.deviceId],
    );
    const found = rows[0]!;
    if (!found.household) return 'householdId';
    if (!found.card) return 'cardId';
    if (!found.device) return 'deviceId';
    return null;
  },

  async txnByKey(sql: Sql, tenantId: string, idempotencyKey: string): Promise<TxnRow | null> {
    const { rows } = await sql.query<TxnRow>(
      `SELECT ${TXN_COLUMNS} FROM billing_txn WHERE tenant_id = $1 AND idempotency_key = $2`,
      [tenantId, idempotencyKey],
    );
    return rows[0] ?? null;
  },

  async txnById(sql: Sql, tenantId: string, id: string): Promise<TxnRow | null> {
    const { rows } = await sql.query<TxnRow>(
      `SELECT ${TXN_COLUMNS} FROM billing_txn WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id],
    );
    return rows[0] ?? null;
  },

  /** The settle or void that ended a hold, or the reversal of a txn, if there is one. */
  async endedBy(
    sql: Sql,
    tenantId: string,
    column: 'hold_txn_id' | 'reverses_txn_id',
    id: string,
  ): Promise<string | null> {
    const { rows } = await sql.query<{ id: string }>(
      `SELECT id::text FROM billing_txn WHERE tenant_id = $1 AND ${column} = $2`,
      [tenantId, id],
    );
    return rows[0]?.id ?? null;
  },

  async postingsOf(sql: Sql, txnId: string): Promise<PostingRow[]> {
    const { rows } = await sql.query<PostingRow>(
      `SELECT p.account_id::text AS "accountId", a.kind, a.owner_id::text AS "ownerId",
              p.debit_fen::float8 AS "debitFen", p.credit_fen::float8 AS "creditFen"
         FROM billing_posting p JOIN billing_account a ON a.id = p.account_id
        WHERE p.txn_id = $1 ORDER BY p.id`,
      [txnId],
    );
    return rows;
  },

  /** The accounts asked for, made on first use (a concurrent maker's row is waited for). */
  async accounts(sql: Sql, tenantId: string, refs: AccountRef[]): Promise<Map<string, Account>> {
    const kinds = refs.map((ref) => ref.kind);
    const owners = refs.map((ref) => ref.ownerId);
    const select = () =>
      sql.query<Account>(
        `SELECT a.id::text, a.kind, a.owner_id::text AS "ownerId"
           FROM billing_account a
           JOIN unnest($2::text[], $3::bigint[]) AS w(kind, owner_id)
             ON a.kind = w.kind AND a.owner_id IS NOT DISTINCT FROM w.owner_id
          WHERE a.tenant_id = $1`,
        [tenantId, kinds, owners],
      );
    let { rows } = await select();
    if (rows.length < new Set(refs.map(keyOf)).size) {
      // A new statement afterwards: in READ COMMITTED it sees rows another transaction made
      // while this insert waited for it, which the insert's own snapshot would not.
      await sql.query(
        `INSERT INTO billing_account (tenant_id, kind, owner_id)
         SELECT $1, w.kind, w.owner_id FROM unnest($2::text[], $3::bigint[]) AS w(kind, owner_id)
         ON CONFLICT DO NOTHING`,
        [tenantId, kinds, owners],
      );
      ({ rows } = await select());
    }
    return new Map(rows.map((row) => [keyOf(row), row]));
  },

  /**
   * Locks household and hold accounts in id order (so two postings on the same accounts never
   * deadlock), then reads each one's last sequence number and balance: read after the lock, so
   * a posting committed while this one waited is seen.
   */
  async lockBalances(
    sql: Sql,
    accountIds: string[],
  ): Promise<Map<string, { seq: number; balanceFen: number }>> {
    const ids = [...new Set(accountIds)].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
    const result = new Map<string, { seq: number; balanceFen: number }>();
    if (ids.length === 0) return result;
    await sql.query(
      `SELECT id FROM billing_account WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE`,
      [ids],
    );
    const { rows } = await sql.query<{ id: string; seq: number | null; balance: number | null }>(
      `SELECT a.id::text, p.account_seq::float8 AS seq, p.balance_after_fen::float8 AS balance
         FROM unnest($1::bigint[]) AS a(id)
         LEFT JOIN LATERAL (
           SELECT account_seq, balance_after_fen FROM billing_posting
            WHERE account_id = a.id AND account_seq IS NOT NULL
            ORDER BY account_seq DESC LIMIT 1) p ON true`,
      [ids],
    );
    for (const row of rows) result.set(row.id, { seq: row.seq ?? 0, balanceFen: row.balance ?? 0 });
    return result;
  },

  /**
   * The balances (credits − debits) of unbounded accounts: an arrears account is below zero by
   * what the household owes. Read after the household's account is locked, since every posting
   * to its arrears is made under that lock.
   */
  async runningBalances(sql: Sql, accountIds: string[]): Promise<Map<string, number>> {
    const result = new Map<string, number>();
    if (accountIds.length === 0) return result;
    const { rows } = await sql.query<{ id: string; balance: number }>(
      `SELECT account_id::text AS id, sum(credit_fen - debit_fen)::float8 AS balance
         FROM billing_posting WHERE account_id = ANY($1::bigint[]) GROUP BY account_id`,
      [accountIds],
    );
    for (const row of rows) result.set(row.id, row.balance);
    return result;
  },

  async insertPostings(
    sql: Sql,
    tenantId: string,
    txnId: string,
    postings: NewPosting[],
  ): Promise<void> {
    await sql.query(
      `INSERT INTO billing_posting (tenant_id, txn_id, account_id, account_kind, debit_fen,
         credit_fen, account_seq, balance_after_fen)
       SELECT $1, $2, p.account_id, p.account_kind, p.debit_fen, p.credit_fen, p.account_seq,
              p.balance_after_fen
         FROM unnest($3::bigint[], $4::text[], $5::bigint[], $6::bigint[], $7::bigint[],
                     $8::bigint[])
           AS p(account_id, account_kind, debit_fen, credit_fen, account_seq, balance_after_fen)`,
      [
        tenantId,
        txnId,
        postings.map((p) => p.account.id),
        postings.map((p) => p.account.kind),
        postings.map((p) => p.debitFen),
        postings.map((p) => p.creditFen),
        postings.map((p) => p.accountSeq),
        postings.map((p) => p.balanceAfterFen),
      ],
    );
  },

  /** A household's money and what is held of it: each account's last balance (0 if none). */
  async householdBalance(
    sql: Sql,
    tenantId: string,
    householdId: string,
  ): Promise<{ availableFen: number; heldFen: number }> {
    const { rows } = await sql.query<{ kind: AccountKind; balance: number | null }>(
      `SELECT a.kind,
              (SELECT p.balance_after_fen::float8 FROM billing_posting p
                WHERE p.account_id = a.id AND p.account_seq IS NOT NULL
                ORDER BY p.account_seq DESC LIMIT 1) AS balance
         FROM billing_account a
        WHERE a.tenant_id = $1 AND a.kind IN ('household', 'hold') AND a.owner_id = $2`,
      [tenantId, householdId],
    );
    const of = (kind: AccountKind) => rows.find((row) => row.kind === kind)?.balance ?? 0;
    return { availableFen: of('household'), heldFen: of('hold') };
  },

  /** Whether the tenant has the household (billing_household, the households' entity table). */
  async householdExists(sql: Sql, tenantId: string, householdId: string): Promise<boolean> {
    const { rows } = await sql.query(
      `SELECT 1 FROM billing_household WHERE tenant_id = $1 AND id = $2`,
      [tenantId, householdId],
    );
    return rows.length > 0;
  },
};
