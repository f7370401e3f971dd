import { defineEntity, f, label } from '../../entity-kit';
import { LEDGER_METHODS } from '../../billing/ledger-calls';
import { USER_TARGET } from '../admin/targets';
import { CARD_TARGET, HOUSEHOLD_TARGET } from './billing-targets';

/** The console route of the recharge records (spec §2 /skgg/rechargeRecord). */
export const RECHARGE_RECORD_SCREEN = '/skgg/rechargeRecord';

/** The kind a transaction is of, or for a reversal the kind it reverses (the screen's filter). */
const RECHARGE_OF =
  'coalesce((SELECT o.kind FROM billing_txn o WHERE o.tenant_id = t.tenant_id AND o.id = t.reverses_txn_id), t.kind)';

/**
 * Recharges and their reversals: the billing ledger's transactions (migration 019) seen from the
 * desk, read only. The screen fixes `rechargeOf=recharge` (a recharge, or a reversal of one);
 * a reversal shows its amount negative and the original's household, method and reference.
 * The daily cash report per cashier sits beside the list (features/billing/reports).
 */
export const rechargeRecordEntity = defineEntity({
  name: 'RechargeRecord',
  title: label('Recharge records', '充值记录', '儲值記錄'),
  table: 'billing_txn',
  path: '/api/billing/rechargeRecord',
  route: RECHARGE_RECORD_SCREEN,
  menuCode: 'rechargeRecord',
  scope: 'tenant',
  operations: { add: false, update: false, delete: false, status: false, export: true },
  defaultSort: { field: 'createdAt', order: 'descend' },
  fields: {
    createdAt: f.datetime({
      label: label('Time', '时间', '時間'),
      readOnly: true,
      search: 'range',
      width: 170,
    }),
    kind: f.enumOf({
      label: label('Type', '类型', '類型'),
      readOnly: true,
      options: [
        { value: 'recharge', label: label('Recharge', '充值', '儲值') },
        { value: 'reversal', label: label('Reversal', '冲正', '沖正') },
      ],
      width: 90,
    }),
    rechargeOf: f.text({
      label: label('Recharge or its reversal', '充值或其冲正', '儲值或其沖正'),
      computed: RECHARGE_OF,
      readOnly: true,
      list: false,
      export: false,
      search: 'in',
    }),
    amountYuan: {
      ...f.money({ label: label('Amount (yuan)', '金额(元)', '金額(元)'), column: 'amount_fen' }),
      computed: `((CASE WHEN t.kind = 'reversal' THEN -t.amount_fen ELSE t.amount_fen END) / 100.0)::numeric(14,2)::text`,
      width: 110,
    },
    householdId: f.ref({
      label: label('Card user', '用卡户', '用卡戶'),
      readOnly: true,
      target: HOUSEHOLD_TARGET,
    }),
    village: f.text({
      label: label('Village', '村庄', '村莊'),
      computed:
        '(SELECT h.village FROM billing_household h WHERE h.tenant_id = t.tenant_id AND h.id = t.household_id)',
      readOnly: true,
      search: 'eq',
    }),
    cardId: f.ref({
      label: label('Card', '卡片', '卡片'),
      readOnly: true,
      target: CARD_TARGET,
      search: undefined,
    }),
    cashierId: f.ref({
      label: label('Cashier', '收费员', '收費員'),
      readOnly: true,
      target: USER_TARGET,
    }),
    method: f.enumOf({
      label: label('Payment method', '支付方式', '支付方式'),
      readOnly: true,
      computed:
        'coalesce(t.method, (SELECT o.method FROM billing_txn o WHERE o.tenant_id = t.tenant_id AND o.id = t.reverses_txn_id))',
      options: LEDGER_METHODS.map((value) => ({
        value,
        label: value === 'cash' ? label('Cash', '现金', '現金') : label('Online', '线上', '線上'),
      })),
      width: 100,
    }),
    externalRef: f.text({
      label: label('Payment reference', '支付流水号', '支付流水號'),
      readOnly: true,
      max: 128,
      computed:
        'coalesce(t.external_ref, (SELECT o.external_ref FROM billing_txn o WHERE o.tenant_id = t.tenant_id AND o.id = t.reverses_txn_id))',
      search: 'like',
    }),
    memo: f.text({
      label: label('Memo', '备注', '備註'),
      readOnly: true,
      max: 500,
      search: undefined,
    }),
  },
});
