import { label } from '../entity-kit/label';
import { defineArea } from './area-kit';

/**
 * Card-swipe well irrigation (DOMAINS.md "Card-swipe irrigation", spec §2 group /skgg): the well
 * controllers' standard screens, and the billing desk's pages. Each page is declared with its
 * console component (features/billing, app/area-pages.ts); all 17 spec paths of the group are
 * here, their menu titles in the route tables (i18n features/routes).
 */
export const skggArea = defineArea({
  code: 'skgg',
  group: '/skgg',
  title: label('Card-swipe irrigation', '刷卡灌溉', '刷卡灌溉'),
  icon: 'idcard',
  menuSequence: 43,
  kinds: ['card_controller'],
  // The card on the controller is a text: the card widget reads it, the list answers numbers.
  keyFactors: ['pumpRunning', 'flow', 'cumulativeVolume', 'energy', 'voltage', 'current'],
  reportFactors: ['flow', 'cumulativeVolume', 'energy'],
  totalFactors: ['cumulativeVolume', 'energy'],
  screens: {
    monitor: 'deviceStatus',
    deviceList: 'deviceManagement',
    warnings: 'alarmRecord',
  },
  // /skgg/alarmRecord: the IoT alarm records hold the menu code alarmRecord.
  menuCodes: { alarmRecord: 'skggAlarmRecord' },
  // The controller's card: pump, the card swiped, flow and the meters.
  widgets: { card: 'cardController', panel: [] },
  settings: [],
  pages: [
    // The desks' card readers (which reader, backend, by whom, last seen) and this desk's own.
    { segment: 'readDeviceList', page: 'DeskReaderListPage', icon: 'api', cashier: true },
    // Households (spec "card users"): name, masked ID number, village, area, crop class.
    { segment: 'cardUser', page: 'CardUserPage', icon: 'solution', cashier: true },
    // Card registration: issuing cards (UID, type, household).
    { segment: 'registrationList', page: 'CardRegistrationPage', icon: 'idcard', cashier: true },
    // The service desk: bind, report lost, replace, cancel and reclaim; recharge; refund. Each
    // money change is written to the card after it commits (features/billing/desk).
    { segment: 'binding', page: 'DeskBindingPage', icon: 'link', cashier: true },
    { segment: 'recharge', page: 'DeskRechargePage', icon: 'bank', cashier: true },
    { segment: 'refund', page: 'DeskRefundPage', icon: 'history', cashier: true },
    // Prices: classes and tiers, wells' billing modes, electricity-to-water coefficients.
    { segment: 'waterSet', page: 'WaterSetPage', icon: 'tags' },
    // Water rights: yearly quotas per household, used and remaining.
    { segment: 'distribution', page: 'WaterRightPage', icon: 'audit', cashier: true },
    // Every ledger transaction (recharge, refund, hold, settlement, consumption, reversal).
    { segment: 'transaction', page: 'TransactionPage', icon: 'table', cashier: true },
    // Recharges and their reversals, and the daily cash report per cashier.
    { segment: 'rechargeRecord', page: 'RechargeRecordPage', icon: 'history', cashier: true },
    // Water, energy and money by village, well or cashier and period.
    { segment: 'statistics', page: 'StatisticsPage', icon: 'dashboard' },
    // Revenue by mode and tier; the reconciliation of cards, ledger and controllers.
    { segment: 'revenue', page: 'RevenuePage', icon: 'bank' },
    // The controllers' sessions (card, well, meters, amount, end reason) and uploaded records.
    { segment: 'consumption', page: 'ConsumptionPage', icon: 'table', cashier: true },
    { segment: 'record', page: 'ControllerRecordPage', icon: 'profile' },
  ],
  operatorScreens: ['monitor', 'deviceList', 'warnings'],
});
