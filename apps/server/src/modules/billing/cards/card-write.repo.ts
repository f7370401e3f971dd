import type { CardWrite, CardWriteReason, CardWriteState } from '@shuili/contract';
import type { Sql } from '../../../db/database';

/**
 * The reversal of a write's transaction, whoever made it: the desk giving up (reversal_txn_id) or
 * an administrator's correction in the ledger, after which the image would put money the ledger
 * took back onto the card.
 */
const REVERSED_BY = `SELECT r.id FROM billing_txn r
   WHERE r.tenant_id = w.tenant_id AND r.reverses_txn_id = w.txn_id`;

const WRITE_COLUMNS = `w.id::text, w.card_id::text AS "cardId", w.card_no AS "cardNo",
  w.household_id::text AS "householdId",
  (SELECT h.household_name FROM billing_household h WHERE h.id = w.household_id) AS "householdName",
  w.reason, w.txn_id::text AS "txnId", w.amount_fen::float8 AS "amountFen",
  w.balance_fen::float8 AS "balanceFen", w.sequence::float8 AS sequence, w.state, w.attempts,
  w.problem, coalesce(w.reversal_txn_id, (${REVERSED_BY}))::text AS "reversalTxnId",
  to_char(w.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt",
  (SELECT u.username FROM sys_user u WHERE u.id = w.created_by) AS "createdBy",
  to_char(w.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "updatedAt"`;

type WriteRow = Omit<CardWrite, 'image'> & { balanceFen: number; sequence: number };

const mapped = ({ balanceFen, sequence, ...row }: WriteRow): CardWrite => ({
  ...row,
  image: { cardNo: row.cardNo, balanceFen, sequence },
});

/**
 * Card writes (migration 021): the images the desk must put on cards after a change committed,
 * and where each stands.
 */
export const cardWriteRepo = {
  async byId(sql: Sql, id: string, lock = false): Promise<CardWrite | undefined> {
    const { rows } = await sql.query<WriteRow>(
      `SELECT ${WRITE_COLUMNS} FROM billing_card_write w WHERE w.id = $1 ${lock ? 'FOR UPDATE' : ''}`,
      [id],
    );
    return rows[0] && mapped(rows[0]);
  },

  async byTxn(sql: Sql, txnId: string): Promise<CardWrite | undefined> {
    const { rows } = await sql.query<WriteRow>(
      `SELECT ${WRITE_COLUMNS} FROM billing_card_write w WHERE w.txn_id = $1`,
      [txnId],
    );
    return rows[0] && mapped(rows[0]);
  },

  /**
   * A new image for a card. Its earlier images not on the card (pending, or given up without a
   * reversal) are superseded: the new one carries the whole balance, theirs included, and an
   * older one written after it would put a stale balance on the card.
   */
  async add(
    sql: Sql,
    write: {
      tenantId: string;
      cardId: string;
      cardNo: string;
      householdId: string | null;
      reason: CardWriteReason;
      txnId: string | null;
      amountFen: number | null;
      balanceFen: number;
      sequence: number;
      userId: string;
    },
  ): Promise<CardWrite> {
    await sql.query(
      `UPDATE billing_card_write SET state = 'superseded', updated_at = now()
        WHERE card_id = $1 AND (state = 'pending' OR (state = 'failed' AND reversal_txn_id IS NULL))`,
      [write.cardId],
    );
    const { rows } = await sql.query<{ id: string }>(
      `INSERT INTO billing_card_write (tenant_id, card_id, card_no, household_id, reason, txn_id,
              amount_fen, balance_fen, sequence, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id::text`,
      [
        write.tenantId,
        write.cardId,
        write.cardNo,
        write.householdId,
        write.reason,
        write.txnId,
        write.amountFen,
        write.balanceFen,
        write.sequence,
        write.userId,
      ],
    );
    return (await cardWriteRepo.byId(sql, rows[0]!.id))!;
  },

  async setState(
    sql: Sql,
    id: string,
    change: { state: CardWriteState; problem?: string | null; reversalTxnId?: string },
  ): Promise<void> {
    await sql.query(
      `UPDATE billing_card_write
          SET state = $2, problem = $3, attempts = attempts + 1,
              reversal_txn_id = coalesce($4::bigint, reversal_txn_id), updated_at = now()
        WHERE id = $1`,
      [id, change.state, change.problem ?? null, change.reversalTxnId ?? null],
    );
  },

  /** A card written with an image: its older images not on it are now superseded by it. */
  async supersedeOlder(sql: Sql, cardId: string, writtenId: string): Promise<void> {
    await sql.query(
      `UPDATE billing_card_write SET state = 'superseded', updated_at = now()
        WHERE card_id = $1 AND id < $2
          AND (state = 'pending' OR (state = 'failed' AND reversal_txn_id IS NULL))`,
      [cardId, writtenId],
    );
  },

  /** Writes not yet on their cards (or one state, or one card), newest first. */
  async list(
    sql: Sql,
    filter: { state?: CardWriteState; cardId?: string; open?: boolean },
  ): Promise<CardWrite[]> {
    const { rows } = await sql.query<WriteRow>(
      `SELECT ${WRITE_COLUMNS} FROM billing_card_write w
        WHERE ($1::text IS NULL OR w.state = $1)
          AND ($2::bigint IS NULL OR w.card_id = $2)
          AND (NOT $3 OR ((w.state = 'pending' OR (w.state = 'failed' AND w.reversal_txn_id IS NULL))
                           AND NOT EXISTS (${REVERSED_BY})))
        ORDER BY w.id DESC LIMIT 200`,
      [filter.state ?? null, filter.cardId ?? null, filter.open === true],
    );
    return rows.map(mapped);
  },
};
