import type { DeviceKind } from '../entities/iot/iot-dicts';
import type { Label } from '../entity-kit/label';
import type { ThingProperty } from '../iot/thing-model';

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
 * A factor the server computes from a device's stored readings (a bayonet station's flow from
 * its level and rating curve): the data report offers, charts and exports it beside the stored
 * ones for devices having every input (server: modules/monitor/report/derived-factors.ts).
 */
export interface DerivedFactorDef {
  /** How it reads: key (unique among the devices' own keys), name, unit, precision. */
  property: ThingProperty;
  /** Stored properties a device needs for it. */
  inputs: readonly string[];
}

/**
 * A page of an area beyond the standard screens: a camera grid, a species catalogue, a program
 * editor. One console component (features/monitor/pages registry) per `page` name.
 */
export interface AreaPageDef {
  /** The spec path's last segment: its route name, menu code and `route.*` title key. */
  segment: string;
  /** The console component drawing it, by name. */
  page: string;
  /** A name from the console's route icon set. */
  icon: string;
  /** Reached from another page of the area, never listed in the menu (spec §2 `/led/setProgram`). */
  hidden?: boolean;
  /** The default operator role has it (menu and the calls it needs). */
  operator?: boolean;
  /** The default cashier role has it (a card-swipe billing service desk's screens). */
  cashier?: boolean;
}

/**
 * One monitoring area: a spec route group, the device kinds it covers, the factors its lists
 * and cards show, which standard screens it has (spec path segment per screen), its own widgets
 * (names the console resolves beside the declaration) and its automation settings.
 */
export interface AreaDef {
  /** The area's code: its menu group's code and the `area` parameter of the monitor calls. */
  code: string;
  /**
   * Spec §2 route group, e.g. `/irrigation`; none where the spec puts the area's pages at the top
   * level (`/video`, `/videoManagement`): they are then top-level menus.
   */
  group?: string;
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
  widgets: {
    card?: string;
    panel: readonly string[];
    /** Drawn under the area's data report (a runoff plot's events). */
    report?: readonly string[];
  };
  /** Factors the server derives from stored ones (DerivedFactorDef). */
  derivedFactors?: readonly DerivedFactorDef[];
  /** Per-device automation settings edited on the configuration screen. */
  settings: readonly AreaSettingDef[];
  /** The area's own pages, after its standard screens in menus. */
  pages?: readonly AreaPageDef[];
  /** Screens the default operator role gets (menus and the calls they need). */
  operatorScreens: readonly AreaScreen[];
  /**
   * Menu codes (also route names and `route.*` title keys) of segments whose own name is taken
   * by another screen: /skgg/alarmRecord's segment is the IoT alarm records' menu code. Menu
   * codes are unique per tenant.
   */
  menuCodes?: Readonly<Record<string, string>>;
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
  if (area.group !== undefined && !area.group.startsWith('/'))
    throw new Error(`area ${area.code}: group must start with /`);
  const segments = [...Object.values(area.screens), ...(area.pages ?? []).map((p) => p.segment)];
  if (new Set(segments).size !== segments.length)
    throw new Error(`area ${area.code}: a path segment is used twice`);
  return area;
}

/** The full path of a segment of an area: under its group, or at the top level without one. */
export function areaSegmentPath(area: AreaDef, segment: string): string {
  return `${area.group ?? ''}/${segment}`;
}

/** The full path of one of an area's screens, e.g. `/irrigation/irrigationDevice`. */
export function areaScreenPath(area: AreaDef, screen: AreaScreen): string | undefined {
  const segment = area.screens[screen];
  return segment ? areaSegmentPath(area, segment) : undefined;
}

/**
 * The menu code, route name stem and `route.*` title key of a segment of an area: the segment
 * itself unless the area names another (AreaDef.menuCodes).
 */
export function areaSegmentCode(area: AreaDef, segment: string): string {
  return area.menuCodes?.[segment] ?? segment;
}

/** The menu code of an area's screen: its spec path's last segment (unique across areas). */
export function areaScreenMenuCode(area: AreaDef, screen: AreaScreen): string | undefined {
  const segment = area.screens[screen];
  return segment === undefined ? undefined : areaSegmentCode(area, segment);
}
