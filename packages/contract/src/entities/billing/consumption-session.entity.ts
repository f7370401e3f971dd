import { defineEntity, f, label, type Label } from '../../entity-kit';
import { SESSION_END_REASONS, type SessionEndReason } from '../../billing/card-controller';
import { DEVICE_TARGET } from '../iot/targets';
import { BILLING_PATH, CARD_TARGET, HOUSEHOLD_TARGET } from './billing-targets';
import { BILLING_MODES } from './price-class.entity';

/** The console route of the consumption sessions (spec §2 /skgg/consumption). */
export const CONSUMPTION_SCREEN = '/skgg/consumption';

const STATE_LABELS: Record<string, Label> = {
  open: label('Running', '用水中', '用水中'),
  settled: label('Settled', '已结算', '已結算'),
  voided: label('Voided', '已撤销', '已撤銷'),
  consumed: label('Posted late', '补录扣费', '補錄扣費'),
};

const END_REASON_LABELS: Record<SessionEndReason, Label> = {
  cardRemoved: label('Card removed', '拔卡', '拔卡'),
  balanceExhausted: label('Balance used up', '余额用尽', '餘額用盡'),
  noPulse: label('No meter pulse', '无计量脉冲', '無計量脈衝'),
  manual: label('Stopped by hand', '手动停止', '手動停止'),
};

/** A meter reading or measured quantity of the session (numeric columns, read as numbers). */
const measured = (name: string, column: string, text: Label, precision = 3) =>
  f.decimal({
    label: text,
    computed: `t.${column}::float8`,
    readOnly: true,
    min: 0,
    max: 1e12,
    precision,
    sortable: false,
    list: !name.endsWith('Start') && !name.endsWith('End'),
  });

/**
 * The card controllers' sessions (migration 022; docs/card-billing.md): one row per card
 * session at a well, written by the server only (modules/billing/sessions), listed, filtered and
 * exported (xlsx, pdf) by the entity kit. `consumed` sessions came as late records (run offline,
 * or after their hold was voided) and were charged on their own; `lostCard` marks a record of a
 * card reported lost before it arrived. Amounts are fen, shown in yuan.
 */
export const consumptionSessionEntity = defineEntity({
  name: 'Consumption',
  title: label('Consumption sessions', '用水消费记录', '用水消費記錄'),
  table: 'billing_session',
  path: `${BILLING_PATH}/consumption`,
  route: CONSUMPTION_SCREEN,
  menuCode: 'consumption',
  scope: 'tenant',
  operations: { add: false, update: false, delete: false, status: false, export: true },
  defaultSort: { field: 'createdAt', order: 'descend' },
  fields: {
    createdAt: f.datetime({
      label: label('Swiped or recorded', '刷卡/上报时间', '刷卡/上報時間'),
      readOnly: true,
      search: 'range',
      width: 170,
    }),
    startedAt: f.datetime({
      label: label('Started', '开始时间', '開始時間'),
      readOnly: true,
      search: 'range',
      width: 170,
    }),
    endedAt: f.datetime({
      label: label('Ended', '结束时间', '結束時間'),
      readOnly: true,
      width: 170,
    }),
    cardNo: f.text({
      label: label('Card number', '卡号', '卡號'),
      readOnly: true,
      max: 32,
      search: 'like',
    }),
    cardId: f.ref({
      label: label('Card', '卡片', '卡片'),
      readOnly: true,
      target: CARD_TARGET,
      list: false,
      search: undefined,
    }),
    householdId: f.ref({
      label: label('Card user', '用卡户', '用卡戶'),
      readOnly: true,
      target: HOUSEHOLD_TARGET,
    }),
    deviceId: f.ref({
      label: label('Well controller', '机井控制器', '機井控制器'),
      readOnly: true,
      target: DEVICE_TARGET,
      // The money's history stays when a device is deleted (device_no keeps its number).
      onDelete: 'set-null',
    }),
    deviceNo: f.text({
      label: label('Controller number', '控制器编号', '控制器編號'),
      readOnly: true,
      max: 64,
      list: false,
      search: undefined,
    }),
    state: f.enumOf({
      label: label('State', '状态', '狀態'),
      readOnly: true,
      options: Object.entries(STATE_LABELS).map(([value, text]) => ({ value, label: text })),
      width: 100,
    }),
    billingMode: f.enumOf({
      label: label('Billing mode', '计费方式', '計費方式'),
      readOnly: true,
      options: BILLING_MODES,
      width: 120,
    }),
    volumeM3: measured('volumeM3', 'volume_m3', label('Water (m³)', '用水量(m³)', '用水量(m³)')),
    energyKwh: measured(
      'energyKwh',
      'energy_kwh',
      label('Energy (kWh)', '用电量(kWh)', '用電量(kWh)'),
    ),
    durationMinutes: f.decimal({
      label: label('Duration (min)', '时长(分钟)', '時長(分鐘)'),
      computed: 'round(t.duration_seconds / 60.0, 1)::float8',
      readOnly: true,
      min: 0,
      max: 1e9,
      precision: 1,
      sortable: false,
    }),
    amountYuan: f.money({
      label: label('Amount (yuan)', '金额(元)', '金額(元)'),
      column: 'amount_fen',
      width: 110,
    }),
    creditYuan: f.money({
      label: label('Reserved (yuan)', '冻结金额(元)', '凍結金額(元)'),
      column: 'credit_fen',
      list: false,
    }),
    controllerAmountYuan: f.money({
      label: label('Controller amount (yuan)', '控制器计费(元)', '控制器計費(元)'),
      column: 'controller_amount_fen',
      list: false,
    }),
    kwhStart: measured(
      'kwhStart',
      'kwh_start',
      label('Energy meter at start (kWh)', '开始电表读数(kWh)', '開始電錶讀數(kWh)'),
    ),
    kwhEnd: measured(
      'kwhEnd',
      'kwh_end',
      label('Energy meter at end (kWh)', '结束电表读数(kWh)', '結束電錶讀數(kWh)'),
    ),
    m3Start: measured(
      'm3Start',
      'm3_start',
      label('Water meter at start (m³)', '开始水表读数(m³)', '開始水錶讀數(m³)'),
    ),
    m3End: measured(
      'm3End',
      'm3_end',
      label('Water meter at end (m³)', '结束水表读数(m³)', '結束水錶讀數(m³)'),
    ),
    endReason: f.enumOf({
      label: label('End reason', '结束原因', '結束原因'),
      readOnly: true,
      options: SESSION_END_REASONS.map((value) => ({ value, label: END_REASON_LABELS[value] })),
      width: 110,
    }),
    recordNo: f.int({
      label: label('Record number', '记录号', '記錄號'),
      readOnly: true,
      min: 1,
      max: 2_147_483_647,
      search: 'eq',
      list: false,
    }),
    late: f.bool({
      label: label('Uploaded late', '补传记录', '補傳記錄'),
      readOnly: true,
      search: 'eq',
      width: 90,
    }),
    lostCard: f.bool({
      label: label('Card reported lost', '挂失后上报', '掛失後上報'),
      readOnly: true,
      search: 'eq',
      width: 90,
    }),
    problem: f.text({
      label: label('Note', '说明', '說明'),
      readOnly: true,
      max: 200,
      list: false,
      search: undefined,
    }),
  },
});
