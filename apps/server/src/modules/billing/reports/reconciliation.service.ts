import type {
  Reconciliation,
  ReconciliationItem,
  ReconciliationQuery,
  ReconciliationRow,
} from '@shuili/contract';
import type { Database, Sql } from '../../../db/database';
import type { AuthContext } from '../../../http/request-context';

/** A household, its current user card, the card's last written image and its ledger accounts. */
interface HouseholdRow {
  householdId: string;
  householdName: string;
  village: string;
  cardId: string | null;
  cardNo: string | null;
  cardState: string | null;
  imageFen: number | null;
  imageAt: Date | null;
  writtenAt: Date | null;
  accountId: string | null;
  sinceSeq: string;
  available: number;
  held: number;
}

/** One posting on a household account since its card's image, with its session if it has one. */
interface PostingRow {
  accountId: string;
  txnId: string;
  kind: string;
  reversedKind: string | null;
  net: number;
  sessionId: string | null;
  sessionState: string | null;
  sessionCardId: string | null;
  lostCard: boolean | null;
  endedAt: Date | null;
  controllerFen: number | null;
}

/** A controller record the server refused (conflict, refused) for one of the cards. */
interface RecordRow {
  id: string;
  cardNo: string;
  status: 'conflict' | 'refused';
  amountFen: number;
  postedFen: number | null;
  at: Date;
}

interface SessionGroup {
  key: string;
  net: number;
  kinds: Set<string>;
  first: PostingRow;
}

/**
 * The reconciliation: per household and its current card, the card's balance (the image last
 * written at the desk, less what the card's controllers took off it since), the ledger's balance
 * and what it charged, side by side. With the image written with the ledger's balance of its
 * transaction, the difference card − ledger is exactly the ledger's movements since and the
 * controllers' charges since, taken session by session; each is given its reason:
 *
 * - a recharge or refund since: not yet on the card (pendingCardWrite);
 * - a session still running: its hold (runningSessionHold);
 * - a session of this card ended since: the controller's charge against the ledger's (zero when
 *   they agree; else controllerAmountDiffers), or ended before the image and posted late
 *   (lateSession: the desk wrote over the controller's charge);
 * - a session of another (lost) card posted since: the new card never lost it (lateLostCardSession);
 * - a controller record refused: the controller took it, the ledger did not (controllerConflict:
 *   the difference to the amount posted under the same key; controllerRefused: all of it);
 * - a reversal or another ledger entry (ledgerCorrection).
 *
 * What no reason explains is `unexplainedFen` (the image itself differing from the ledger, say).
 */
export class ReconciliationService {
  constructor(private readonly db: Database) {}

  reconcile(auth: AuthContext, query: ReconciliationQuery): Promise<Reconciliation> {
    return this.db.tenant(auth, (sql) => this.build(sql, auth.tenantId, query));
  }

  async build(
    sql: Sql,
    tenantId: string,
    query: { village?: string; householdId?: string; onlyDifferences?: boolean | string },
  ): Promise<Reconciliation> {
    const households = await this.households(sql, tenantId, query);
    const postings = await this.postingsSince(sql, tenantId, households);
    const records = await this.refusedRecords(sql, tenantId, households);
    const rows = households.map((household) =>
      reconcileOne(
        household,
        postings.get(household.accountId ?? '') ?? [],
        records.get(household.cardNo ?? '') ?? [],
      ),
    );
    const only = query.onlyDifferences === true || query.onlyDifferences === 'true';
    const listed = only
      ? rows.filter((row) => row.differenceFen !== 0 || row.unexplainedFen !== 0)
      : rows;
    // Differences first (the unexplained before the explained), then by village and name.
    listed.sort(
      (a, b) =>
        Number(b.unexplainedFen !== 0) - Number(a.unexplainedFen !== 0) ||
        Number(b.differenceFen !== 0) - Number(a.differenceFen !== 0) ||
        a.village.localeCompare(b.village, 'zh') ||
        a.householdName.localeCompare(b.householdName, 'zh'),
    );
    return {
      rows: listed,
      households: rows.length,
      withDifference: rows.filter((row) => row.differenceFen !== 0).length,
      unexplained: rows.filter((row) => row.unexplainedFen !== 0).length,
      cardTotalFen: rows.reduce((sum, row) => sum + row.cardBalanceFen, 0),
      ledgerTotalFen: rows.reduce((sum, row) => sum + row.ledgerAvailableFen, 0),
    };
  }

  private async households(
    sql: Sql,
    tenantId: string,
    query: { village?: string; householdId?: string },
  ): Promise<HouseholdRow[]> {
    const params: unknown[] = [tenantId];
    const where: string[] = [];
    if (query.village) {
      params.push(query.village);
      where.push(`h.village = $${params.length}`);
    }
    if (query.householdId) {
      params.push(query.householdId);
      where.push(`h.id = $${params.length}`);
    }
    const balance = (account: string) =>
      `coalesce((SELECT p.balance_after_fen FROM billing_posting p
                  WHERE p.account_id = ${account}.id AND p.account_seq IS NOT NULL
                  ORDER BY p.account_seq DESC LIMIT 1), 0)::float8`;
    const { rows } = await sql.query<HouseholdRow>(
      `SELECT x.*
         FROM (SELECT h.id::text AS "householdId", h.household_name AS "householdName", h.village,
                      c.id::text AS "cardId", c.card_no AS "cardNo", c.card_state AS "cardState",
                      w.balance_fen::float8 AS "imageFen", w.created_at AS "imageAt",
                      w.updated_at AS "writtenAt", a.id::text AS "accountId",
                      coalesce(anchor.seq, 0)::text AS "sinceSeq",
                      ${balance('a')} AS available, ${balance('ha')} AS held
                 FROM billing_household h
                 LEFT JOIN LATERAL (
                        SELECT c.* FROM billing_card c
                         WHERE c.tenant_id = h.tenant_id AND c.household_id = h.id
                           AND c.card_type = 'user'
                         ORDER BY (c.card_state = 'bound') DESC, c.id DESC LIMIT 1) c ON true
                 LEFT JOIN LATERAL (
                        SELECT w.* FROM billing_card_write w
                         WHERE w.tenant_id = h.tenant_id AND w.card_id = c.id AND w.state = 'written'
                         ORDER BY w.sequence DESC LIMIT 1) w ON true
                 LEFT JOIN billing_account a
                        ON a.tenant_id = h.tenant_id AND a.kind = 'household' AND a.owner_id = h.id
                 -- The posting the image's balance is the balance after: its transaction's (or,
                 -- for a replacement, the last before it); the desk refreshes a retried image
                 -- with the balance of its retry, so a later posting with that very balance,
                 -- made before the image was confirmed, is the one it carries.
                 LEFT JOIN LATERAL (
                        SELECT coalesce(
                                 (SELECT max(p.account_seq) FROM billing_posting p
                                   WHERE p.account_id = a.id AND p.account_seq >= base.seq
                                     AND p.balance_after_fen = w.balance_fen
                                     AND p.created_at <= w.updated_at),
                                 base.seq) AS seq
                          FROM (SELECT max(p.account_seq) AS seq FROM billing_posting p
                                 WHERE p.account_id = a.id
                                   AND CASE WHEN w.txn_id IS NOT NULL THEN p.txn_id = w.txn_id
                                            ELSE p.created_at <= w.created_at END) base) anchor
                        ON true
                 LEFT JOIN billing_account ha
                        ON ha.tenant_id = h.tenant_id AND ha.kind = 'hold' AND ha.owner_id = h.id
                WHERE h.tenant_id = $1 ${where.map((one) => `AND ${one}`).join(' ')}) x
        ORDER BY x.village, x."householdName", x."householdId"::bigint`,
      params,
    );
    return rows;
  }

  /** The household accounts' postings after each card image, by account. */
  private async postingsSince(
    sql: Sql,
    tenantId: string,
    households: HouseholdRow[],
  ): Promise<Map<string, PostingRow[]>> {
    const withAccount = households.filter((household) => household.accountId);
    const found = new Map<string, PostingRow[]>();
    if (withAccount.length === 0) return found;
    const { rows } = await sql.query<PostingRow>(
      `SELECT p.account_id::text AS "accountId", t.id::text AS "txnId", t.kind,
              o.kind AS "reversedKind", (p.credit_fen - p.debit_fen)::float8 AS net,
              s.id::text AS "sessionId", s.state AS "sessionState",
              s.card_id::text AS "sessionCardId", s.lost_card AS "lostCard",
              s.ended_at AS "endedAt", s.controller_amount_fen::float8 AS "controllerFen"
         FROM unnest($2::bigint[], $3::bigint[]) AS x(account_id, since)
         JOIN billing_posting p ON p.account_id = x.account_id AND p.account_seq > x.since
         JOIN billing_txn t ON t.tenant_id = p.tenant_id AND t.id = p.txn_id
         LEFT JOIN billing_txn o ON o.tenant_id = t.tenant_id AND o.id = t.reverses_txn_id
         LEFT JOIN billing_session s
                ON s.tenant_id = t.tenant_id
               AND (s.hold_txn_id = CASE WHEN t.kind = 'hold' THEN t.id ELSE t.hold_txn_id END
                    OR (t.kind = 'consumption' AND s.settle_txn_id = t.id))
        WHERE p.tenant_id = $1
        ORDER BY p.account_id, p.account_seq`,
      [
        tenantId,
        withAccount.map((household) => household.accountId),
        withAccount.map((household) => household.sinceSeq),
      ],
    );
    for (const row of rows) {
      const list = found.get(row.accountId) ?? [];
      list.push(row);
      found.set(row.accountId, list);
    }
    return found;
  }

  /** Controller records refused for the households' cards, with what was posted under their key. */
  private async refusedRecords(
    sql: Sql,
    tenantId: string,
    households: HouseholdRow[],
  ): Promise<Map<string, RecordRow[]>> {
    const cards = households.map((household) => household.cardNo).filter((no) => no !== null);
    const found = new Map<string, RecordRow[]>();
    if (cards.length === 0) return found;
    const { rows } = await sql.query<RecordRow>(
      `SELECT r.id::text, r.card_no AS "cardNo", r.status, r.amount_fen::float8 AS "amountFen",
              (SELECT s.controller_amount_fen FROM billing_session s
                WHERE s.tenant_id = r.tenant_id AND s.device_id = r.device_id
                  AND s.record_no = r.record_no)::float8 AS "postedFen",
              r.received_at AS at
         FROM billing_controller_record r
        WHERE r.tenant_id = $1 AND r.card_no = ANY($2::text[])
          AND r.status IN ('conflict', 'refused') AND r.amount_fen IS NOT NULL`,
      [tenantId, cards],
    );
    for (const row of rows) {
      const list = found.get(row.cardNo) ?? [];
      list.push(row);
      found.set(row.cardNo, list);
    }
    return found;
  }
}

/** One household's row: its sums, and the difference taken apart reason by reason. */
export function reconcileOne(
  household: HouseholdRow,
  postings: PostingRow[],
  records: RecordRow[],
): ReconciliationRow {
  const imageFen = household.imageFen ?? 0;
  const imageAt = household.imageAt?.getTime() ?? 0;
  const items: ReconciliationItem[] = [];
  const item = (reason: ReconciliationItem['reason'], amountFen: number, ref: string | null) => {
    if (amountFen !== 0) items.push({ reason, amountFen, ref });
  };
  // A session's hold, settle or void and consumption are one movement of the household's money.
  const groups = new Map<string, SessionGroup>();
  for (const posting of postings) {
    const key = posting.sessionId ? `session:${posting.sessionId}` : `txn:${posting.txnId}`;
    const group = groups.get(key) ?? { key, net: 0, kinds: new Set<string>(), first: posting };
    group.net += posting.net;
    group.kinds.add(posting.kind);
    groups.set(key, group);
  }
  let controllerChargedFen = 0;
  let ledgerChargedFen = 0;
  for (const group of groups.values()) {
    const one = group.first;
    const moved = -group.net;
    if (one.sessionId) {
      const ref = one.sessionId;
      // A running session's hold; or a hold made before the image, released since (voided).
      if (one.sessionState === 'open' || one.sessionState === 'voided') {
        item('runningSessionHold', moved, ref);
        continue;
      }
      ledgerChargedFen += moved;
      const thisCard = one.sessionCardId === household.cardId && !one.lostCard;
      if (!thisCard) item('lateLostCardSession', moved, ref);
      else if ((one.endedAt?.getTime() ?? 0) < imageAt) item('lateSession', moved, ref);
      else {
        const controller = one.controllerFen ?? moved;
        controllerChargedFen += controller;
        item('controllerAmountDiffers', moved - controller, ref);
      }
      continue;
    }
    const ref = one.txnId;
    if (one.kind === 'recharge' || one.kind === 'refund') item('pendingCardWrite', moved, ref);
    else if (one.kind === 'consumption') {
      ledgerChargedFen += moved;
      item('lateSession', moved, ref);
    } else item('ledgerCorrection', moved, ref);
  }
  for (const record of records) {
    if (record.at.getTime() < imageAt) continue;
    // A conflict is the same record again with another amount: the card lost one of them, the
    // ledger posted the first; a refused record was never posted at all.
    const taken =
      record.status === 'conflict' ? record.amountFen - (record.postedFen ?? 0) : record.amountFen;
    controllerChargedFen += taken;
    item(
      record.status === 'conflict' ? 'controllerConflict' : 'controllerRefused',
      -taken,
      `record:${record.id}`,
    );
  }
  const cardBalanceFen = imageFen - controllerChargedFen;
  const differenceFen = cardBalanceFen - household.available;
  const explained = items.reduce((sum, one) => sum + one.amountFen, 0);
  return {
    householdId: household.householdId,
    householdName: household.householdName,
    village: household.village,
    cardId: household.cardId,
    cardNo: household.cardNo,
    cardState: household.cardState,
    cardImageFen: imageFen,
    cardWrittenAt: household.writtenAt?.toISOString() ?? null,
    controllerChargedFen,
    cardBalanceFen,
    ledgerChargedFen,
    ledgerAvailableFen: household.available,
    ledgerHeldFen: household.held,
    differenceFen,
    items,
    unexplainedFen: differenceFen - explained,
  };
}
