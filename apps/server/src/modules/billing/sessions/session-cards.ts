import type { CardRejectReason } from '@shuili/contract';
import type { Sql } from '../../../db/database';

/** A card as a controller's swipe or record names it (the card's household, when bound). */
export interface SessionCard {
  cardId: string;
  cardNo: string;
  cardType: string;
  state: string;
  householdId: string | null;
  householdEnabled: boolean;
}

/** Card states no controller may run: the card was reported lost, replaced or reclaimed. */
const BLOCKED_STATES: ReadonlyMap<string, CardRejectReason> = new Map([
  ['lost', 'lost'],
  ['replaced', 'lost'],
  ['cancelled', 'cancelled'],
]);

/** The card of a number in the tenant in context (H3's billing_card and billing_household). */
export async function cardOf(sql: Sql, cardNo: string): Promise<SessionCard | undefined> {
  const { rows } = await sql.query<{
    id: string;
    card_no: string;
    card_type: string;
    card_state: string;
    household_id: string | null;
    household_status: number | null;
  }>(
    `SELECT c.id::text, c.card_no, c.card_type, c.card_state, c.household_id::text,
            h.status AS household_status
       FROM billing_card c LEFT JOIN billing_household h ON h.id = c.household_id
      WHERE upper(c.card_no) = upper($1)`,
    [cardNo],
  );
  const row = rows[0];
  return (
    row && {
      cardId: row.id,
      cardNo: row.card_no,
      cardType: row.card_type,
      state: row.card_state,
      householdId: row.household_id,
      householdEnabled: row.household_status === 1,
    }
  );
}

/**
 * Whether a card may start a session: a user card bound to an enabled household. Answers the
 * reason the controller is told when it may not (and the 'invalid or lost card' alarm raised).
 */
export function refusalOf(card: SessionCard | undefined): CardRejectReason | undefined {
  if (!card || card.cardType !== 'user') return 'unknown';
  const blocked = BLOCKED_STATES.get(card.state);
  if (blocked) return blocked;
  if (card.state !== 'bound' || !card.householdId) return 'notBound';
  if (!card.householdEnabled) return 'householdDisabled';
  return undefined;
}

/** Whether a record of this card arrived after the card was reported lost (flagged sessions). */
export function reportedLost(card: SessionCard | undefined): boolean {
  return card !== undefined && BLOCKED_STATES.get(card.state) === 'lost';
}
