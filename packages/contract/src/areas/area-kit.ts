import type { DeviceKind } from '../entities/iot/iot-dicts';
import type { Label } from '../entity-kit/label';

/**
 * The standard screens every device area may have (DOMAINS.md "Screens every device area
 * shares"). One implementation of each serves every area, parameterised by its declaration.
 */
export const AREA_SCREENS = [
  'deviceList',
  'monitor',
  'configuration',
  'dataReport',
  'warnings',
  'operations',
  'regional',
] as const;
export type AreaScreen = (typeof AREA_SCREENS)[number];

/** A per-device automation setting of an area (a pump station's dry-run level). */
export interface AreaSettingDef {
  key: string;
  label: Label;
  type: 'number' | 'integer' | 'enum' | 'boolean';
  unit?: string;
  min?: number;
  max?: number;
  precision?: number;
  options?: ReadonlyArray<{ value: string; label: Label }>;
  /** What a device without its own value uses. */
  defaultValue: number | string | boolean;
  /** Why an operator sets it (shown under the field). */
  help?: Label;
}

/**
 * One monitoring area: a spec route group, the device kinds it covers, the factors its lists
 * and cards show, which standard screens it has (spec path segment per screen), its own widgets
 * (names the console resolves beside the declaration) and its automation settings.
 */
export interface AreaDef {
  /** The area's code: its menu group's code and the `area` parameter of the monitor calls. */
  code: string;
  /** Spec §2 route group, e.g. `/irrigation`. */
  group: string;
  title: Label;
  /** A name from the console's route icon set. */
  icon: string;
  menuSequence: number;
  kinds: readonly DeviceKind[];
  /** Property keys of the products' thing models shown as list columns and on cards, in order. */
  keyFactors: readonly string[];
  /** Keys the data report offers first (every numeric property may be picked). */
  reportFactors: readonly string[];
  /** Factors that accumulate (a report's total means something): volumes, rainfall, energy. */
  totalFactors: readonly string[];
  /** Each screen the area has, by the last segment of its spec path. */
  screens: Partial<Record<AreaScreen, string>>;
  /**
   * The area's own widgets (console: features/monitor/widgets/): `card` is drawn on each
   * device's card of the monitor and device list, `panel` beside the selected device.
   */
  widgets: { card?: string; panel: readonly string[] };
  /** Per-device automation settings edited on the configuration screen. */
  settings: readonly AreaSettingDef[];
  /** Screens the default operator role gets (menus and the calls they need). */
  operatorScreens: readonly AreaScreen[];
}

/** A declared area, checked for the things a typo would break. */
export function defineArea(area: AreaDef): AreaDef {
  for (const screen of Object.keys(area.screens)) {
    if (!AREA_SCREENS.includes(screen as AreaScreen))
      throw new Error(`area ${area.code}: unknown screen ${screen}`);
  }
  for (const screen of area.operatorScreens) {
    if (!area.screens[screen])
      throw new Error(`area ${area.code}: operator screen ${screen} absent`);
  }
  if (!area.group.startsWith('/')) throw new Error(`area ${area.code}: group must start with /`);
  return area;
}

/** The full path of one of an area's screens, e.g. `/irrigation/irrigationDevice`. */
export function areaScreenPath(area: AreaDef, screen: AreaScreen): string | undefined {
  const segment = area.screens[screen];
  return segment ? `${area.group}/${segment}` : undefined;
}

/** The menu code of an area's screen: its spec path's last segment (unique across areas). */
export function areaScreenMenuCode(area: AreaDef, screen: AreaScreen): string | undefined {
  return area.screens[screen];
}
