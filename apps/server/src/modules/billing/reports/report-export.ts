import {
  fenToYuan,
  label,
  type CashReport,
  type Label,
  type Lang,
  type Reconciliation,
  type ReconciliationReason,
  type Revenue,
  type Statistics,
  type StatisticsGroup,
} from '@shuili/contract';
import type { ExportTable, ExportValue } from '../../export/export-renderer';

type Column = [key: string, title: Label];

const yuan = (fen: number | null) => (fen === null ? null : fenToYuan(fen));

function table(
  lang: Lang,
  title: Label,
  subtitle: string,
  columns: Column[],
  rows: Array<Record<string, ExportValue>>,
  timeZone?: string,
): ExportTable {
  return {
    title: subtitle ? `${title[lang]} ${subtitle}` : title[lang],
    columns: columns.map(([key, name]) => ({ key, label: name[lang] })),
    rows,
    timeZone,
  };
}

const TOTAL = label('Total', '合计', '合計');

const CASH_COLUMNS: Column[] = [
  ['cashierName', label('Cashier', '收费员', '收費員')],
  ['cashInFen', label('Cash in (yuan)', '现金收入(元)', '現金收入(元)')],
  ['cashRefundedFen', label('Cash refunded (yuan)', '现金退款(元)', '現金退款(元)')],
  ['onlineFen', label('Online (yuan)', '线上充值(元)', '線上儲值(元)')],
  ['reversedFen', label('Reversed (yuan)', '冲正(元)', '沖正(元)')],
  ['netCashFen', label('Net cash (yuan)', '现金净额(元)', '現金淨額(元)')],
  ['netFen', label('Net (yuan)', '净额(元)', '淨額(元)')],
  ['count', label('Transactions', '笔数', '筆數')],
];

/** The daily cash report: one line per cashier and the day's total. */
export function cashReportTable(report: CashReport, lang: Lang): ExportTable {
  const line = (row: CashReport['total'], name: string) => ({
    cashierName: name,
    cashInFen: yuan(row.cashInFen),
    cashRefundedFen: yuan(row.cashRefundedFen),
    onlineFen: yuan(row.onlineFen),
    reversedFen: yuan(row.reversedFen),
    netCashFen: yuan(row.netCashFen),
    netFen: yuan(row.netFen),
    count: row.count,
  });
  return table(
    lang,
    label('Daily cash report', '收费日报', '收費日報'),
    report.day,
    CASH_COLUMNS,
    [
      ...report.rows.map((row) => line(row, row.cashierName || '—')),
      line(report.total, TOTAL[lang]),
    ],
    report.timeZone,
  );
}

export const GROUP_LABELS: Record<StatisticsGroup, Label> = {
  village: label('Village', '村庄', '村莊'),
  well: label('Well', '机井', '機井'),
  cashier: label('Cashier', '收费员', '收費員'),
};

/** Statistics: one line per period and group, then the total. */
export function statisticsTable(statistics: Statistics, lang: Lang, range: string): ExportTable {
  const columns: Column[] = [
    ['period', label('Period', '周期', '週期')],
    ['groupName', GROUP_LABELS[statistics.groupBy]],
    ['waterM3', label('Water (m³)', '用水量(m³)', '用水量(m³)')],
    ['energyKwh', label('Energy (kWh)', '用电量(kWh)', '用電量(kWh)')],
    ['sessions', label('Sessions', '用水次数', '用水次數')],
    ['chargedFen', label('Charged (yuan)', '消费金额(元)', '消費金額(元)')],
    ['rechargedFen', label('Recharged (yuan)', '充值金额(元)', '儲值金額(元)')],
    ['refundedFen', label('Refunded (yuan)', '退款金额(元)', '退款金額(元)')],
  ];
  const line = (row: Statistics['total'], period: string, name: string) => ({
    period,
    groupName: name,
    waterM3: row.waterM3,
    energyKwh: row.energyKwh,
    sessions: row.sessions,
    chargedFen: yuan(row.chargedFen),
    rechargedFen: yuan(row.rechargedFen),
    refundedFen: yuan(row.refundedFen),
  });
  return table(
    lang,
    label('Statistics', '统计分析', '統計分析'),
    range,
    columns,
    [
      ...statistics.rows.map((row) => line(row, row.period, row.groupName || '—')),
      line(statistics.total, TOTAL[lang], ''),
    ],
    statistics.timeZone,
  );
}

export const MODE_LABELS: Record<string, Label> = {
  kwh: label('By kWh', '按电量', '按電量'),
  m3: label('By m³', '按水量', '按水量'),
  time: label('By time', '按时间', '按時間'),
  energyToWater: label('Electricity to water', '以电折水', '以電折水'),
  '': label('No session', '无会话', '無會話'),
};

/** Revenue: per period, mode and tier; then the ledger's revenue per period. */
export function revenueTable(revenue: Revenue, lang: Lang, range: string): ExportTable {
  const columns: Column[] = [
    ['period', label('Period', '周期', '週期')],
    ['billingMode', label('Billing mode', '计费方式', '計費方式')],
    ['tier', label('Tier', '阶梯', '階梯')],
    ['waterM3', label('Water (m³)', '用水量(m³)', '用水量(m³)')],
    ['energyKwh', label('Energy (kWh)', '用电量(kWh)', '用電量(kWh)')],
    ['sessions', label('Sessions', '用水次数', '用水次數')],
    ['amountFen', label('Revenue (yuan)', '收入(元)', '收入(元)')],
  ];
  const tierName = (tier: number) =>
    tier === 0
      ? label('Within quota', '定额内', '定額內')[lang]
      : `${label('Tier', '阶梯', '階梯')[lang]} ${tier + 1}`;
  const ledgerName = label(
    'Ledger revenue (net of reversals)',
    '账本收入(扣除冲正)',
    '帳本收入(扣除沖正)',
  );
  return table(
    lang,
    label('Revenue', '营收报表', '營收報表'),
    range,
    columns,
    [
      ...revenue.rows.map((row) => ({
        period: row.period,
        billingMode: (MODE_LABELS[row.billingMode] ?? {
          en: row.billingMode,
          zh: row.billingMode,
          tw: row.billingMode,
        })[lang],
        tier: tierName(row.tier),
        waterM3: row.waterM3,
        energyKwh: row.energyKwh,
        sessions: row.sessions,
        amountFen: yuan(row.amountFen),
      })),
      ...revenue.periods.map((one) => ({
        period: one.period,
        billingMode: ledgerName[lang],
        amountFen: yuan(one.netFen),
      })),
      { period: TOTAL[lang], billingMode: ledgerName[lang], amountFen: yuan(revenue.total.netFen) },
    ],
    revenue.timeZone,
  );
}

export const REASON_LABELS: Record<ReconciliationReason, Label> = {
  pendingCardWrite: label('Card write pending', '待写卡', '待寫卡'),
  runningSessionHold: label('Held by a running session', '用水中冻结', '用水中凍結'),
  lateLostCardSession: label('Late session of a lost card', '挂失卡迟到记录', '掛失卡遲到記錄'),
  controllerConflict: label('Controller record conflict', '控制器记录冲突', '控制器記錄衝突'),
  controllerRefused: label('Controller record refused', '控制器记录被拒', '控制器記錄被拒'),
  controllerAmountDiffers: label(
    'Controller charged otherwise',
    '控制器扣费不一致',
    '控制器扣費不一致',
  ),
  lateSession: label('Late offline session', '迟到的离线记录', '遲到的離線記錄'),
  ledgerCorrection: label('Ledger correction', '账本冲正', '帳本沖正'),
};

/** The reconciliation: one line per household with its reasons spelled out. */
export function reconciliationTable(result: Reconciliation, lang: Lang): ExportTable {
  const columns: Column[] = [
    ['village', label('Village', '村庄', '村莊')],
    ['householdName', label('Household', '用卡户', '用卡戶')],
    ['cardNo', label('Card', '卡号', '卡號')],
    ['cardImageFen', label('Card image (yuan)', '写卡余额(元)', '寫卡餘額(元)')],
    [
      'controllerChargedFen',
      label('Controllers charged (yuan)', '控制器扣费(元)', '控制器扣費(元)'),
    ],
    ['cardBalanceFen', label('Card balance (yuan)', '卡内余额(元)', '卡內餘額(元)')],
    ['ledgerAvailableFen', label('Ledger balance (yuan)', '账本余额(元)', '帳本餘額(元)')],
    ['ledgerHeldFen', label('Held (yuan)', '冻结(元)', '凍結(元)')],
    ['differenceFen', label('Difference (yuan)', '差额(元)', '差額(元)')],
    ['reasons', label('Reasons', '差异原因', '差異原因')],
    ['unexplainedFen', label('Unexplained (yuan)', '未解释(元)', '未解釋(元)')],
  ];
  return table(
    lang,
    label('Reconciliation', '对账', '對帳'),
    '',
    columns,
    result.rows.map((row) => ({
      village: row.village,
      householdName: row.householdName,
      cardNo: row.cardNo,
      cardImageFen: yuan(row.cardImageFen),
      controllerChargedFen: yuan(row.controllerChargedFen),
      cardBalanceFen: yuan(row.cardBalanceFen),
      ledgerAvailableFen: yuan(row.ledgerAvailableFen),
      ledgerHeldFen: yuan(row.ledgerHeldFen),
      differenceFen: yuan(row.differenceFen),
      reasons: row.items
        .map((one) => `${REASON_LABELS[one.reason][lang]} ${fenToYuan(one.amountFen)}`)
        .join('; '),
      unexplainedFen: yuan(row.unexplainedFen),
    })),
  );
}
