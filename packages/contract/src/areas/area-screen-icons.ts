import type { AreaScreen } from './area-kit';

/**
 * The icon of each standard screen (a name of the console's route icon set), alike in every
 * area: the server's menus and the console's routes both take it from here.
 */
export const AREA_SCREEN_ICONS: Record<AreaScreen, string> = {
  deviceList: 'database',
  monitor: 'dashboard',
  configuration: 'setting',
  dataReport: 'bars',
  warnings: 'bell',
  operations: 'history',
  regional: 'environment',
};

/** Menu order of the cross-area screens, after every area's group. */
export const CROSS_AREA_MENU_SEQUENCE: Partial<Record<AreaScreen, number>> = {
  dataReport: 48,
  warnings: 49,
};
