import { AppError } from '../../../http/app-error';
import type { CardRow } from './desk-card.repo';

/** A refusal about one field of the request (the error handler words it with the field's name). */
export function refused(
  status: 400 | 409,
  field: string,
  key: string,
  params: Record<string, string | number> = {},
): AppError {
  return new AppError(status, key, { params, fields: [{ field, key, params }] });
}

/** The card named by a field, or a 400 naming the field. */
export function known(card: CardRow | undefined, field: string, cardNo: string): CardRow {
  if (!card) throw refused(400, field, 'billing.cardUnknown', { cardNo });
  return card;
}

/** Refuses a card that is not in one of these states, saying which state it is in. */
export function inState(card: CardRow, field: string, states: readonly string[]): void {
  if (!states.includes(card.cardState))
    throw refused(409, field, `billing.cardState.${card.cardState}`, { cardNo: card.cardNo });
}

/** Only user cards belong to households and carry money. */
export function userCard(card: CardRow, field: string): void {
  if (card.cardType !== 'user')
    throw refused(409, field, 'billing.cardNotUserCard', { cardNo: card.cardNo });
}

/** A bound card with its household (money calls). */
export function boundCard(card: CardRow, field: string): CardRow & { householdId: string } {
  userCard(card, field);
  inState(card, field, ['bound']);
  if (!card.householdId)
    throw refused(409, field, 'billing.cardState.registered', { cardNo: card.cardNo });
  return card as CardRow & { householdId: string };
}
