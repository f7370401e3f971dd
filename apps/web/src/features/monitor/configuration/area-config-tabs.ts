import type { AreaDef } from '@shuili/contract';
import { lazy, type ComponentType } from 'react';

/**
 * A tab of an area's monitor configuration screen beyond the standard ones (thresholds,
 * settings): an area's own configuration, such as water and fertilizer's recipes and programs.
 * `title` is a translation key of the monitor feature strings; `page` may be lazy, so the screen
 * renders it inside Suspense.
 */
export interface AreaConfigTab {
  key: string;
  title: string;
  page: ComponentType<{ area: AreaDef }>;
}

/** The extra configuration tabs of each area, by area code. */
export const AREA_CONFIG_TABS: Partial<Record<string, readonly AreaConfigTab[]>> = {
  floodMonitor: [
    {
      key: 'rainThresholds',
      title: 'monitor.flood.thresholdsTab',
      page: lazy(() =>
        import('../flood/FloodThresholdTab').then((module) => ({
          default: module.FloodThresholdTab,
        })),
      ),
    },
  ],
  irrigation: [
    {
      key: 'valveGroups',
      title: 'monitor.irrigation.valveGroupsTab',
      page: lazy(() =>
        import('../irrigation/ValveGroupTab').then((module) => ({ default: module.ValveGroupTab })),
      ),
    },
    {
      key: 'rotations',
      title: 'monitor.irrigation.rotationsTab',
      page: lazy(() =>
        import('../irrigation/RotationScheduleTab').then((module) => ({
          default: module.RotationScheduleTab,
        })),
      ),
    },
    {
      key: 'soilRules',
      title: 'monitor.irrigation.soilRulesTab',
      page: lazy(() =>
        import('../irrigation/SoilRuleTab').then((module) => ({ default: module.SoilRuleTab })),
      ),
    },
    {
      key: 'runs',
      title: 'monitor.irrigation.runsTab',
      page: lazy(() =>
        import('../irrigation/ScheduleRuns').then((module) => ({
          default: module.ScheduleRunsTab,
        })),
      ),
    },
  ],
  bayonet: [
    {
      key: 'ratingCurves',
      title: 'monitor.hydrology.ratingCurvesTab',
      page: lazy(() =>
        import('../hydrology/RatingCurveTab').then((module) => ({
          default: module.RatingCurveTab,
        })),
      ),
    },
  ],
  waterFertilizer: [
    {
      key: 'recipes',
      title: 'monitor.fertigation.recipesTab',
      page: lazy(() =>
        import('../fertigation/FertilizerRecipeTab').then((module) => ({
          default: module.FertilizerRecipeTab,
        })),
      ),
    },
    {
      key: 'programs',
      title: 'monitor.fertigation.programsTab',
      page: lazy(() =>
        import('../fertigation/FertigationProgramTab').then((module) => ({
          default: module.FertigationProgramTab,
        })),
      ),
    },
  ],
};
