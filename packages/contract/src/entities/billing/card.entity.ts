import { defineEntity, f, label } from '../../entity-kit';
import { BILLING_PATH, BILLING_SCREENS, CARD_TARGET, HOUSEHOLD_TARGET } from './billing-targets';
import { CARD_NO_PATTERN, CARD_STATES, CARD_TYPES } from './card-options';

/**
 * An IC card issued at a service desk (spec /skgg/registrationList): its UID, type, the household
 * it belongs to (user cards) and its state. The state and the card it replaces are the lifecycle
 * calls' (bind, report lost, replace, cancel), never the form's.
 */
export const cardEntity = defineEntity({
  name: 'Card',
  title: label('Card registration', '卡片登记', '卡片登記'),
  table: 'billing_card',
  path: `${BILLING_PATH}/card`,
  route: BILLING_SCREENS.registrationList,
  menuCode: 'registrationList',
  scope: 'tenant',
  fields: {
    cardNo: f.text({
      label: label('Card number', '卡号', '卡號'),
      required: true,
      min: 8,
      max: 20,
      unique: true,
      sortable: true,
      pattern: CARD_NO_PATTERN,
    }),
    cardType: f.enumOf({
      label: label('Card type', '卡类型', '卡類型'),
      required: true,
      options: CARD_TYPES,
      defaultValue: 'user',
    }),
    householdId: f.ref({
      label: label('Household', '用卡户', '用卡戶'),
      target: HOUSEHOLD_TARGET,
    }),
    cardState: f.enumOf({
      label: label('Card state', '卡状态', '卡狀態'),
      required: true,
      options: CARD_STATES,
      defaultValue: 'registered',
      readOnly: true,
    }),
    issuedAt: f.datetime({ label: label('Issued at', '发卡时间', '發卡時間') }),
    replacesCardId: f.ref({
      label: label('Replaces card', '原卡', '原卡'),
      target: CARD_TARGET,
      readOnly: true,
      search: undefined,
    }),
    remark: f.textarea({ label: label('Remark', '备注', '備註'), max: 500 }),
  },
  defaultSort: { field: 'issuedAt', order: 'descend' },
});
