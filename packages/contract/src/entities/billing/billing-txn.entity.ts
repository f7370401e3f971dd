import { defineEntity, f, label } from '../../entity-kit';
import { LEDGER_METHODS, LEDGER_TXN_KINDS, type LedgerTxnKind } from '../../billing/ledger-calls';
import { USER_TARGET } from '../admin/targets';
import { DEVICE_TARGET } from '../iot/targets';
import { CARD_TARGET, HOUSEHOLD_TARGET } from './billing-targets';

/** The console route of the transaction list (spec §2 /skgg/transaction). */
export const TRANSACTION_SCREEN = '/skgg/transaction';

const KIND_LABELS: Record<LedgerTxnKind, ReturnType<typeof label>> = {
  recharge: label('Recharge', '充值', '儲值'),
  refund: label('Refund', '退款', '退款'),
  hold: label('Hold', '冻结', '凍結'),
  settle: label('Settlement', '结算', '結算'),
  void: label('Hold released', '解冻', '解凍'),
  consumption: label('Consumption', '消费', '消費'),
  reversal: label('Reversal', '冲正', '沖正'),
};

const METHOD_LABELS = {
  cash: label('Cash', '现金', '現金'),
  online: label('Online', '线上', '線上'),
};

/**
 * The billing ledger's transactions (migration 019), one row per transaction: read only, since
 * only the ledger (modules/billing/ledger) writes them and nothing ever changes them. Listed,
 * filtered and exported (xlsx, pdf) by the entity kit. Amounts are fen, shown in yuan. Its
 * references keep what they name: a household, card, controller or cashier with transactions
 * cannot be deleted (409 in use), the ledger must keep saying whose money moved.
 */
export const billingTxnEntity = defineEntity({
  name: 'Transaction',
  title: label('Transactions', '交易记录', '交易記錄'),
  table: 'billing_txn',
  path: '/api/billing/transaction',
  route: TRANSACTION_SCREEN,
  menuCode: 'transaction',
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
      label: label('Type', '交易类型', '交易類型'),
      readOnly: true,
      options: LEDGER_TXN_KINDS.map((value) => ({ value, label: KIND_LABELS[value] })),
      width: 100,
    }),
    amountYuan: f.money({
      label: label('Amount (yuan)', '金额(元)', '金額(元)'),
      column: 'amount_fen',
      width: 110,
    }),
    householdId: f.ref({
      label: label('Card user', '用卡户', '用卡戶'),
      readOnly: true,
      target: HOUSEHOLD_TARGET,
    }),
    cardId: f.ref({
      label: label('Card', '卡片', '卡片'),
      readOnly: true,
      target: CARD_TARGET,
    }),
    deviceId: f.ref({
      label: label('Controller', '控制器', '控制器'),
      column: 'controller_id',
      readOnly: true,
      target: DEVICE_TARGET,
    }),
    cashierId: f.ref({
      label: label('Cashier', '收费员', '收費員'),
      readOnly: true,
      target: USER_TARGET,
    }),
    method: f.enumOf({
      label: label('Payment method', '支付方式', '支付方式'),
      readOnly: true,
      options: LEDGER_METHODS.map((value) => ({ value, label: METHOD_LABELS[value] })),
      width: 100,
    }),
    externalRef: f.text({
      label: label('Payment reference', '支付流水号', '支付流水號'),
      readOnly: true,
      max: 128,
      search: 'eq',
    }),
    reversesTxnId: f.text({
      label: label('Reverses transaction', '冲正的交易', '沖正的交易'),
      computed: 't.reverses_txn_id::text',
      readOnly: true,
      search: undefined,
    }),
    memo: f.text({
      label: label('Memo', '备注', '備註'),
      readOnly: true,
      max: 500,
      search: 'like',
    }),
  },
});
