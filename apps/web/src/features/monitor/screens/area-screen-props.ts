import {
  areaScreenMenuCode,
  CROSS_AREA_SCREENS,
  type AreaDef,
  type AreaScreen,
} from '@shuili/contract';

/** What every standard screen receives from its route: its area (undefined: across every area). */
export interface AreaScreenProps {
  area?: AreaDef;
}

/** The route title key (route.*) of a standard screen, in an area or across all of them. */
export function areaScreenTitleKey(area: AreaDef | undefined, screen: AreaScreen): string {
  const segment = area ? areaScreenMenuCode(area, screen) : CROSS_AREA_SCREENS[screen]?.slice(1);
  return `route.${segment ?? screen}`;
}
