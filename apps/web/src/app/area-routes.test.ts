import { AREAS, LANGS } from '@shuili/contract';
import { describe, expect, it } from 'vitest';
import { findTrail, flattenPaths, generateRoutes, isPathAllowed } from '../core/generate-routes';
import { menuNode as node } from '../core/menu-test-node';
import { translationFiles, type Tree } from '../i18n/translation-files';
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

describe('monitoring area routes', () => {
  const screens = flattenPaths(asyncRoutes).filter(
    (path) => findTrail(asyncRoutes, path)?.trail.at(-1)?.route.page,
  );

  it('give every spec path of the areas a screen, and no other area path', () => {
    const groups = AREAS.map((area) => `${area.group}/`);
    const areaScreens = screens.filter(
      (path) =>
        groups.some((group) => path.startsWith(group)) ||
        ['/deviceDataReport', '/warningInformation'].includes(path),
    );
    expect([...areaScreens].sort()).toEqual([...ISSUE_PATHS].sort());
  });

  it('title groups and screens with route keys every language has', () => {
    const titles = ISSUE_PATHS.flatMap((path) =>
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
