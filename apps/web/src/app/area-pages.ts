import type { LazyPage } from '../core/lazy-page';
import type { AreaScreenProps } from '../features/monitor/screens/area-screen-props';
import { monitorScreen } from './area-screen-page';

/**
 * The areas' own pages (AreaDef.pages) by the component names their declarations give: a camera
 * grid, a species catalogue, a program editor. Each is its own chunk behind the zone gate
 * (`monitorScreen(() => import('../features/…/Page'), 'Page')`); a declared page missing here
 * fails area-routes.test.ts.
 */
export const AREA_PAGES: Record<string, LazyPage<AreaScreenProps>> = {
  // Insect situation: the catalogue of pest species the traps' photos are counted by.
  InsectSpeciesPage: monitorScreen(
    () => import('../features/monitor/insect/InsectSpeciesPage'),
    'InsectSpeciesPage',
  ),
  // Video (/video, /videoManagement): the live camera grid and the cameras' management.
  VideoGridPage: monitorScreen(
    () => import('../features/monitor/video/VideoGridPage'),
    'VideoGridPage',
  ),
  VideoManagementPage: monitorScreen(
    () => import('../features/monitor/video/VideoManagementPage'),
    'VideoManagementPage',
  ),
  // LED screens: the programs, the program editor and sending a program to screens.
  LedProgramListPage: monitorScreen(
    () => import('../features/monitor/led/LedProgramListPage'),
    'LedProgramListPage',
  ),
  LedProgramEditorPage: monitorScreen(
    () => import('../features/monitor/led/LedProgramEditorPage'),
    'LedProgramEditorPage',
  ),
  LedSetProgramPage: monitorScreen(
    () => import('../features/monitor/led/LedSetProgramPage'),
    'LedSetProgramPage',
  ),
  // Card-swipe billing: households, card registration, prices and water rights.
  CardUserPage: monitorScreen(() => import('../features/billing/CardUserPage'), 'CardUserPage', [
    'billing',
  ]),
  CardRegistrationPage: monitorScreen(
    () => import('../features/billing/CardRegistrationPage'),
    'CardRegistrationPage',
    ['billing'],
  ),
  WaterSetPage: monitorScreen(() => import('../features/billing/WaterSetPage'), 'WaterSetPage', [
    'billing',
  ]),
  WaterRightPage: monitorScreen(
    () => import('../features/billing/WaterRightPage'),
    'WaterRightPage',
    ['billing'],
  ),
  // Card-swipe billing's money reports: recharge records with the daily cash report,
  // statistics, and revenue with the reconciliation.
  RechargeRecordPage: monitorScreen(
    () => import('../features/billing/reports/RechargeRecordPage'),
    'RechargeRecordPage',
    ['billing'],
  ),
  StatisticsPage: monitorScreen(
    () => import('../features/billing/reports/StatisticsPage'),
    'StatisticsPage',
    ['billing'],
  ),
  RevenuePage: monitorScreen(
    () => import('../features/billing/reports/RevenuePage'),
    'RevenuePage',
    ['billing'],
  ),
  // The ledger's transactions (read only: corrections are reversals).
  TransactionPage: monitorScreen(
    () => import('../features/billing/ledger/TransactionPage'),
    'TransactionPage',
  ),
  // The card controllers' sessions and the records they uploaded.
  ConsumptionPage: monitorScreen(
    () => import('../features/billing/sessions/ConsumptionPage'),
    'ConsumptionPage',
  ),
  ControllerRecordPage: monitorScreen(
    () => import('../features/billing/sessions/ControllerRecordPage'),
    'ControllerRecordPage',
  ),
  // The service desk (cashier): card binding and lifecycle, recharge, refund, card readers.
  DeskBindingPage: monitorScreen(
    () => import('../features/billing/desk/DeskBindingPage'),
    'DeskBindingPage',
    ['billing'],
  ),
  DeskRechargePage: monitorScreen(
    () => import('../features/billing/desk/DeskRechargePage'),
    'DeskRechargePage',
    ['billing'],
  ),
  DeskRefundPage: monitorScreen(
    () => import('../features/billing/desk/DeskRefundPage'),
    'DeskRefundPage',
    ['billing'],
  ),
  DeskReaderListPage: monitorScreen(
    () => import('../features/billing/desk/DeskReaderListPage'),
    'DeskReaderListPage',
    ['billing'],
  ),
  // Farm traceability: the entity screens from producer to shipment (features/trace).
  TraceBasePage: monitorScreen(() => import('../features/trace/TraceBasePage'), 'TraceBasePage', [
    'trace',
  ]),
  TraceAreaPage: monitorScreen(() => import('../features/trace/TraceAreaPage'), 'TraceAreaPage', [
    'trace',
  ]),
  TracePlantPage: monitorScreen(() => import('../features/trace/TracePlantPage'), 'TracePlantPage'),
  TraceGrowPage: monitorScreen(() => import('../features/trace/TraceGrowPage'), 'TraceGrowPage', [
    'trace',
  ]),
  TraceFarmworkPage: monitorScreen(
    () => import('../features/trace/TraceFarmworkPage'),
    'TraceFarmworkPage',
  ),
  TraceHarvestPage: monitorScreen(
    () => import('../features/trace/TraceHarvestPage'),
    'TraceHarvestPage',
    ['trace'],
  ),
  TraceProcessPage: monitorScreen(
    () => import('../features/trace/TraceProcessPage'),
    'TraceProcessPage',
  ),
  TracePackagePage: monitorScreen(
    () => import('../features/trace/TracePackagePage'),
    'TracePackagePage',
    ['trace'],
  ),
  TraceLogisticsPage: monitorScreen(
    () => import('../features/trace/TraceLogisticsPage'),
    'TraceLogisticsPage',
  ),
  // Traceability's own pages: the public page's settings, the digital map, a batch's resume.
  TraceHomeModePage: monitorScreen(
    () => import('../features/trace/home-mode/TraceHomeModePage'),
    'TraceHomeModePage',
    ['trace'],
  ),
  DigitalMapPage: monitorScreen(
    () => import('../features/trace/map/DigitalMapPage'),
    'DigitalMapPage',
    ['trace'],
  ),
  TraceResumePage: monitorScreen(
    () => import('../features/trace/resume/TraceResumePage'),
    'TraceResumePage',
    ['trace'],
  ),
};
