import {
  cardEntity,
  consumptionSessionEntity,
  entityCalls,
  householdEntity,
  priceClassEntity,
  priceTierEntity,
  rechargeRecordEntity,
  waterCoefficientEntity,
  waterRightEntity,
  wellBillingEntity,
  WATER_RIGHT_CALLS,
  WORKBENCH_CALLS,
  type EntityDef,
} from '@shuili/contract';
import { DESK_CASHIER_CALLS } from './cards/cards.module';
import { LEDGER_CASHIER_CALLS } from './ledger/ledger-grants';
import { REPORT_CASHIER_CALLS } from './reports/report-grants';

/** An entity's list and its exports (xlsx and pdf, the issue's). */
const readAndExport = (entity: EntityDef) => {
  const calls = entityCalls(entity);
  return [calls.query, calls.exportXlsx, calls.exportPdf];
};

/**
 * The calls the default cashier role starts with (DEFAULT_ROLE_GRANTS): a service desk keeps
 * households and cards (add and edit, never delete: a household with money is closed by the
 * lifecycle), distributes and reads water rights, and reads the prices its farmers ask about
 * (changing them is an administrator's). Each billing feature appends its cashier calls here.
 */
export const BILLING_CASHIER_CALLS: readonly string[] = [
  WORKBENCH_CALLS.overview,
  ...readAndExport(householdEntity),
  entityCalls(householdEntity).add,
  entityCalls(householdEntity).update,
  ...readAndExport(cardEntity),
  entityCalls(cardEntity).add,
  entityCalls(cardEntity).update,
  ...readAndExport(waterRightEntity),
  entityCalls(waterRightEntity).add,
  entityCalls(waterRightEntity).update,
  WATER_RIGHT_CALLS.distributeYear,
  // The price classes, read by the household form's crop class; tiers, wells and coefficients
  // for the prices a farmer asks about.
  entityCalls(priceClassEntity).query,
  entityCalls(priceTierEntity).query,
  entityCalls(wellBillingEntity).query,
  entityCalls(waterCoefficientEntity).query,
  // Recharges, refunds, balances and transactions; the day's cash report.
  ...LEDGER_CASHIER_CALLS,
  // Recharge records (recharges and their reversals) with their exports.
  ...readAndExport(rechargeRecordEntity),
  // The sessions a farmer asks about at the desk ("what did my last irrigation cost?").
  ...readAndExport(consumptionSessionEntity),
  ...REPORT_CASHIER_CALLS,
  // The service desk: card lifecycle, recharge and refund with their card writes, readers.
  ...DESK_CASHIER_CALLS,
];

/** The buttons of the cashier's screens (menus: AreaPageDef.cashier). */
export const BILLING_CASHIER_BUTTONS: readonly string[] = [
  'cardUser:add',
  'cardUser:edit',
  'cardUser:export',
  'registrationList:add',
  'registrationList:edit',
  'registrationList:export',
  'distribution:add',
  'distribution:edit',
  'distribution:export',
  'rechargeRecord:export',
  'consumption:export',
];
