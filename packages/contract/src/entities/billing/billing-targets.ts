import type { RefTarget } from '../../entity-kit';

/**
 * The card-swipe billing area's API prefix and screens (spec §2 group /skgg). Each entity's
 * generic calls live under `${BILLING_PATH}/<entity>/`; the other billing calls (ledger, cards,
 * sessions) under `${BILLING_PATH}/…` as well.
 */
export const BILLING_PATH = '/api/billing';

export const BILLING_SCREENS = {
  cardUser: '/skgg/cardUser',
  registrationList: '/skgg/registrationList',
  waterSet: '/skgg/waterSet',
  distribution: '/skgg/distribution',
} as const;

/** What billing fields refer to; apart from the entities so they never import each other. */
export const HOUSEHOLD_TARGET: RefTarget = {
  table: 'billing_household',
  labelColumn: 'household_name',
  labelField: 'householdName',
  queryCall: `${BILLING_PATH}/cardUser/queryCardUser`,
};

export const CARD_TARGET: RefTarget = {
  table: 'billing_card',
  labelColumn: 'card_no',
  labelField: 'cardNo',
  queryCall: `${BILLING_PATH}/card/queryCard`,
};

export const PRICE_CLASS_TARGET: RefTarget = {
  table: 'billing_price_class',
  labelColumn: 'class_name',
  labelField: 'className',
  queryCall: `${BILLING_PATH}/priceClass/queryPriceClass`,
};
