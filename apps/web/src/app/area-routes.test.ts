import { AREAS, areaSegmentPath, LANGS } from '@shuili/contract';
import { describe, expect, it } from 'vitest';
import { findTrail, flattenPaths, generateRoutes, isPathAllowed } from '../core/generate-routes';
import { menuNode as node } from '../core/menu-test-node';
import { translationFiles, type Tree } from '../i18n/translation-files';
import { AREA_PAGES } from './area-pages';
import { asyncRoutes } from './async-routes';

/** Issue 18's monitoring routes, exactly the spec's paths (§2). */
const ISSUE_PATHS = [
  '/irrigation/irrigationDevice',
  '/irrigation/irrigationMonitorConfiguration',
  '/irrigation/irrigationDataReport',
  '/sluiceIrrigation/sluiceIrrigationDeviceManagement',
  '/pumpStation/pumpDevice',
  '/pumpStation/pumpMonitorConfiguration',
  '/pumpStation/pumpWarnInfor',
  '/pumpStation/pumpOperationRecord',
  '/waterFertilizer/waterFertilizerMonitorConfiguration',
  '/waterFertilizer/waterFertilizerDevice',
  '/waterFertilizer/waterFertilizerDataReport',
  '/waterFertilizer/waterFertilizerWarnInfor',
  '/waterFertilizer/waterFertilizerRegionalManagement',
  '/waterFertilizer/waterFertilizerOperationRecord',
  '/soilMoisture/soilMoistureMonitor',
  '/soilMoisture/soilMoistureDevice',
  '/soilMoisture/soilMoistureDataReport',
  '/soilMoisture/soilMoistureWarnInfor',
  '/soilMoisture/soilMoistureRegionalManagement',
  '/soilMoisture/soilMoistureOperationRecord',
  '/weatherStation/weatherDevice',
  '/weatherStation/weatherMonitor',
  '/weatherStation/weatherDataReport',
  '/weatherStation/weatherWarnInfor',
  '/deviceDataReport',
  '/warningInformation',
];

/**
 * Issue 19's routes (spec §2): the hydrology, insect, video and LED areas. Each area's own pages
 * join the list as they are built.
 */
const ISSUE_19_PATHS = [
  '/floodMonitor/floodMonitorAlarmList',
  '/floodMonitor/floodMonitorDeviceList',
  '/floodMonitor/floodMonitorConfiguration',
  '/floodMonitor/floodMonitorDataReport',
  '/sedimentFlow/sedimentFlowAlarmList',
  '/sedimentFlow/sedimentFlowDeviceList',
  '/sedimentFlow/sedimentFlowConfiguration',
  '/sedimentFlow/sedimentFlowDataReport',
  '/bayonet/bayonetDeviceList',
  '/bayonet/bayonetConfiguration',
  '/bayonet/bayonetDataReport',
  '/silt/siltMonitor',
  '/silt/siltDevice',
  '/silt/siltDataReport',
  '/silt/siltWarnInfor',
  '/silt/siltRegionalManagement',
  '/silt/siltOperationRecord',
  '/insectSituationMonitor/insectDeviceList',
  '/insectSituationMonitor/insectImageIntroduction',
  '/video',
  '/videoManagement',
  '/led/ledDeviceManagement',
  '/led/ledProgramManagement',
  '/led/ledEditProgram',
  '/led/setProgram',
];

/** Issue 20: card-swipe irrigation (/skgg), its standard screens and billing pages. */
const ISSUE_20_PATHS = [
  '/skgg/deviceStatus',
  '/skgg/deviceManagement',
  '/skgg/alarmRecord',
  '/skgg/cardUser',
  '/skgg/registrationList',
  '/skgg/waterSet',
  '/skgg/distribution',
  // The service desk (features/billing/desk).
  '/skgg/readDeviceList',
  '/skgg/binding',
  '/skgg/recharge',
  '/skgg/refund',
  // The card controllers' sessions and uploaded records (features/billing/sessions).
  '/skgg/consumption',
  '/skgg/record',
  // The ledger's transactions (features/billing/ledger).
  '/skgg/transaction',
  // The money reports (features/billing/reports).
  '/skgg/rechargeRecord',
  '/skgg/statistics',
  '/skgg/revenue',
];

/**
 * Issue 21: farm traceability (/traceabilitySystem): its entity screens, the public page's
 * settings, the digital map and a batch's resume (features/trace).
 */
const ISSUE_21_PATHS = [
  '/traceabilitySystem/traceHomeMode',
  '/traceabilitySystem/digitalMap',
  '/traceabilitySystem/base',
  '/traceabilitySystem/area',
  '/traceabilitySystem/plant',
  '/traceabilitySystem/grow',
  '/traceabilitySystem/farmwork',
  '/traceabilitySystem/harvest',
  '/traceabilitySystem/process',
  '/traceabilitySystem/package',
  '/traceabilitySystem/logistics',
  '/traceabilitySystem/resume',
];

const AREA_PATHS = [...ISSUE_PATHS, ...ISSUE_19_PATHS, ...ISSUE_20_PATHS, ...ISSUE_21_PATHS];

describe('monitoring area routes', () => {
  const screens = flattenPaths(asyncRoutes).filter(
    (path) => findTrail(asyncRoutes, path)?.trail.at(-1)?.route.page,
  );

  it('give every spec path of the areas a screen, and no other area path', () => {
    const groups = AREAS.flatMap((area) => (area.group ? [`${area.group}/`] : []));
    const topLevel = [
      '/deviceDataReport',
      '/warningInformation',
      ...AREAS.filter((area) => !area.group).flatMap((area) =>
        (area.pages ?? []).map((page) => areaSegmentPath(area, page.segment)),
      ),
    ];
    const areaScreens = screens.filter(
      (path) => groups.some((group) => path.startsWith(group)) || topLevel.includes(path),
    );
    expect([...areaScreens].sort()).toEqual([...AREA_PATHS].sort());
  });

  it('draw every page an area declares with a component of the console', () => {
    const declared = AREAS.flatMap((area) => (area.pages ?? []).map((page) => page.page));
    expect(declared.filter((page) => !AREA_PAGES[page])).toEqual([]);
  });

  it('title groups and screens with route keys every language has', () => {
    const titles = AREA_PATHS.flatMap((path) =>
      findTrail(asyncRoutes, path)!.trail.map((link) => link.route.meta?.title ?? ''),
    );
    for (const lang of LANGS) {
      // The base file (the shell's own titles) and the area titles the console shell loads.
      const route = {
        ...(translationFiles.base?.[lang]?.route as Tree),
        ...(translationFiles.routes?.[lang]?.route as Tree),
      };
      const missing = [...new Set(titles)].filter(
        (title) => typeof route[title.replace(/^route\./, '')] !== 'string',
      );
      expect(missing, lang).toEqual([]);
    }
  });

  it('one screen of each kind serves every area: the same chunk behind each', () => {
    const pageOf = (path: string) => findTrail(asyncRoutes, path)!.trail.at(-1)!.route.page!;
    expect(pageOf('/irrigation/irrigationDevice').preload).toBe(
      pageOf('/weatherStation/weatherDevice').preload,
    );
    expect(pageOf('/irrigation/irrigationDevice')).not.toBe(
      pageOf('/weatherStation/weatherDevice'),
    );
    expect(pageOf('/soilMoisture/soilMoistureDataReport').preload).toBe(
      pageOf('/deviceDataReport').preload,
    );
  });

  it('are kept as far as the server’s menu lists them', () => {
    const menu = [node('/soilMoisture', [node('/soilMoisture/soilMoistureDevice')])];
    const routes = generateRoutes(asyncRoutes, ['ROLE_OPERATOR'], menu);
    expect(isPathAllowed('/soilMoisture/soilMoistureDevice', asyncRoutes, routes)).toBe(true);
    expect(isPathAllowed('/soilMoisture/soilMoistureMonitor', asyncRoutes, routes)).toBe(false);
    expect(isPathAllowed('/warningInformation', asyncRoutes, routes)).toBe(false);
  });
});
