import type { RefTarget } from '../../entity-kit';

/** What fertigation programs refer to; apart from the entities so they never import each other. */
export const FERTILIZER_RECIPE_TARGET: RefTarget = {
  table: 'monitor_fertilizer_recipe',
  labelColumn: 'recipe_name',
  labelField: 'recipeName',
  queryCall: '/api/monitor/fertigation/queryFertilizerRecipe',
};

/** Where recipes and programs are edited: tabs of the water-fertilizer configuration screen. */
export const FERTIGATION_SCREEN = '/waterFertilizer/waterFertilizerMonitorConfiguration';

/** The calls of the recipes' and programs' own API (beside their generic entity calls). */
export const FERTIGATION_PATH = '/api/monitor/fertigation';
