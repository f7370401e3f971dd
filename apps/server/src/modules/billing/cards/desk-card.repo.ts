import { MASKED_ID_SQL } from '@shuili/contract';
import type { Sql } from '../../../db/database';

/** A card as the lifecycle calls need it (billing_card, the card entity's table). */
export interface CardRow {
  id: string;
  cardNo: string;
  cardType: string;
  cardState: string;
  householdId: string | null;
  replacesCardId: string | null;
}

export interface HouseholdRow {
  id: string;
  householdName: string;
  idNumberMasked: string | null;
  phone: string | null;
  village: string | null;
  enabled: boolean;
}

const CARD_COLUMNS = `id::text, card_no AS "cardNo", card_type AS "cardType",
  card_state AS "cardState", household_id::text AS "householdId",
  replaces_card_id::text AS "replacesCardId"`;

/**
 * The cards and households the desk reads and moves (row-level security keeps them to the
 * caller's tenant). Lifecycle changes lock the card row first, so two desks acting on one card
 * take turns and the second sees the first's state.
 */
export const deskCardRepo = {
  async byNo(sql: Sql, cardNo: string, lock = false): Promise<CardRow | undefined> {
    const { rows } = await sql.query<CardRow>(
      `SELECT ${CARD_COLUMNS} FROM billing_card WHERE upper(card_no) = upper($1)
        ${lock ? 'FOR UPDATE' : ''}`,
      [cardNo],
    );
    return rows[0];
  },

  async byId(sql: Sql, id: string): Promise<CardRow | undefined> {
    const { rows } = await sql.query<CardRow>(
      `SELECT ${CARD_COLUMNS} FROM billing_card WHERE id = $1`,
      [id],
    );
    return rows[0];
  },

  /** The card that replaced this one (its replacement points back to it). */
  async replacementOf(sql: Sql, id: string): Promise<CardRow | undefined> {
    const { rows } = await sql.query<CardRow>(
      `SELECT ${CARD_COLUMNS} FROM billing_card WHERE replaces_card_id = $1 ORDER BY id DESC LIMIT 1`,
      [id],
    );
    return rows[0];
  },

  async household(sql: Sql, id: string): Promise<HouseholdRow | undefined> {
    const { rows } = await sql.query<HouseholdRow>(
      `SELECT t.id::text, t.household_name AS "householdName",
              ${MASKED_ID_SQL('t.id_number')} AS "idNumberMasked",
              t.phone, t.village, coalesce(t.status, 1) = 1 AS enabled
         FROM billing_household t WHERE t.id = $1`,
      [id],
    );
    return rows[0];
  },

  /** Whether the household has another card still in use (bound or lost, not yet replaced). */
  async otherLiveCards(sql: Sql, householdId: string, exceptId: string): Promise<number> {
    const { rows } = await sql.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM billing_card
        WHERE household_id = $1 AND id <> $2 AND card_state IN ('bound', 'lost')`,
      [householdId, exceptId],
    );
    return rows[0]?.count ?? 0;
  },

  async setState(
    sql: Sql,
    id: string,
    change: { cardState: string; householdId?: string; replacesCardId?: string; userId: string },
  ): Promise<void> {
    await sql.query(
      `UPDATE billing_card
          SET card_state = $2,
              household_id = coalesce($3::bigint, household_id),
              replaces_card_id = coalesce($4::bigint, replaces_card_id),
              updated_at = now(), updated_by = $5
        WHERE id = $1`,
      [
        id,
        change.cardState,
        change.householdId ?? null,
        change.replacesCardId ?? null,
        change.userId,
      ],
    );
  },

  /** The household's water right of this year, when one is distributed (migration 020). */
  async quota(
    sql: Sql,
    tenantId: string,
    householdId: string,
  ): Promise<{ year: number; quotaM3: number; usedM3: number; remainingM3: number } | null> {
    const { rows } = await sql.query<{ year: number; quota: number; used: number }>(
      `SELECT w.year, coalesce(w.quota_m3, 0)::float8 AS quota,
              billing_water_used_m3(w.tenant_id, w.household_id, w.year)::float8 AS used
         FROM billing_water_right w
        WHERE w.tenant_id = $1 AND w.household_id = $2
          AND w.year = extract(year FROM now())::int`,
      [tenantId, householdId],
    );
    const row = rows[0];
    if (!row) return null;
    const round = (value: number) => Math.round(value * 100) / 100;
    return {
      year: row.year,
      quotaM3: round(row.quota),
      usedM3: round(row.used),
      remainingM3: round(row.quota - row.used),
    };
  },
};
