import { cardEntity } from '@shuili/contract';
import type { EntityContext, EntityHooks } from '../../../entity/entity-hooks';
import type { Row } from '../../../entity/entity-repo';
import type { FieldProblem } from '../../../http/app-error';
import { mergedRow, refuseProblems } from '../../monitor/entity-rows';

/** States in which the registration screen may still give or take the card's household. */
const OPEN_STATES = new Set(['registered', 'bound']);

/**
 * Issuing a card (spec /skgg/registrationList): its UID kept upper-case (readers differ), issued
 * now unless the desk enters an earlier date, only user cards belong to a household, and the
 * state follows: bound with a household, registered without. A bound card keeps its household
 * here, and once lost, replaced or cancelled so does every card (the lifecycle calls own those).
 */
async function checkCard(ctx: EntityContext, id: string | undefined, values: Row): Promise<Row> {
  if (typeof values.cardNo === 'string') values.cardNo = values.cardNo.toUpperCase();
  const stored = id
    ? (
        await ctx.sql.query<{ cardNo: string; householdId: string | null }>(
          `SELECT card_no AS "cardNo", household_id::text AS "householdId"
             FROM billing_card WHERE id = $1`,
          [id],
        )
      ).rows[0]
    : undefined;
  const card = await mergedRow(ctx.sql, cardEntity.table, id, values);
  const problems: FieldProblem[] = [];
  const household = card.householdId ?? null;
  if (household !== null && card.cardType !== 'user')
    problems.push({ field: 'householdId', key: 'billing.cardTypeNoHousehold' });
  const state = String(card.cardState ?? 'registered');
  const householdChanges = 'householdId' in values;
  if (id && householdChanges && !OPEN_STATES.has(state))
    problems.push({ field: 'householdId', key: 'billing.cardStateFixed' });
  // A bound card carries its household's balance (its image) and is charged to it offline:
  // moved or unbound here, its money and sessions would follow the wrong household.
  else if (
    stored?.householdId &&
    householdChanges &&
    state === 'bound' &&
    String(household ?? '') !== stored.householdId
  )
    problems.push({ field: 'householdId', key: 'billing.cardBoundMove' });
  // The controllers' blacklist names lost, replaced and cancelled cards by number: renumbering
  // one would let the card in the farmer's pocket work again at controllers offline.
  const cardNoChanges =
    stored !== undefined &&
    typeof values.cardNo === 'string' &&
    values.cardNo !== stored.cardNo.toUpperCase();
  if (cardNoChanges && !OPEN_STATES.has(state))
    problems.push({ field: 'cardNo', key: 'billing.cardNoFixed' });
  if (household !== null && householdChanges) {
    const { rows } = await ctx.sql.query<{ status: number }>(
      `SELECT status FROM billing_household WHERE id = $1`,
      [String(household)],
    );
    if (rows[0] && rows[0].status !== 1)
      problems.push({ field: 'householdId', key: 'billing.householdDisabled' });
  }
  refuseProblems(problems);
  if (!id && (values.issuedAt === undefined || values.issuedAt === null))
    values.issuedAt = new Date().toISOString();
  const extra: Row = {};
  if (!id || (householdChanges && OPEN_STATES.has(state)))
    extra.card_state = household === null ? 'registered' : 'bound';
  return extra;
}

/** The card registration's rules, for the generic entity routes. */
export const cardRegistrationHooks: EntityHooks = {
  beforeCreate: async (ctx, values) => checkCard(ctx, undefined, values),
  beforeUpdate: async (ctx, id, values) => checkCard(ctx, id, values),
};
