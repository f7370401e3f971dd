import { SOIL_WATER_LIMITS, type SoilType } from '@shuili/contract';
import type { Point } from './counter-increase';

/** The probe's depths (cm), top to bottom, and the thing-model key of each one's moisture. */
export const SOIL_DEPTHS = [10, 20, 40, 60] as const;
export const moistureKey = (depth: number) => `soilMoisture${depth}`;

/** The soil type a station without its own setting has (the area declaration's default). */
export const DEFAULT_SOIL_TYPE: SoilType = 'loam';

/** Field capacity and wilting point of a soil type; an unknown type is read as loam. */
export function soilLimits(soilType: unknown): { fieldCapacity: number; wiltingPoint: number } {
  return SOIL_WATER_LIMITS[soilType as SoilType] ?? SOIL_WATER_LIMITS[DEFAULT_SOIL_TYPE];
}

/**
 * The value a series had at an instant: its newest point at or before it, if that point is
 * within `toleranceMs` (an older one says nothing about that moment).
 */
export function valueAt(
  points: readonly Point[],
  atMs: number,
  toleranceMs: number,
): number | undefined {
  let found: Point | undefined;
  for (const point of points) {
    if (point[0] <= atMs && (!found || point[0] > found[0])) found = point;
  }
  return found && atMs - found[0] <= toleranceMs ? found[1] : undefined;
}

/** Moisture per depth (SOIL_DEPTHS order) at an instant, from the series of each depth's key. */
export function profileAt(
  series: ReadonlyMap<string, readonly Point[]>,
  atMs: number,
  toleranceMs: number,
): (number | undefined)[] {
  return SOIL_DEPTHS.map((depth) =>
    valueAt(series.get(moistureKey(depth)) ?? [], atMs, toleranceMs),
  );
}

/** How a moisture reads against the soil's limits. */
export type MoistureState = 'dry' | 'low' | 'good' | 'wet';

/**
 * dry: at or below the wilting point; low: in the lower half of the plant-available water
 * (irrigation is due, FAO-56's usual 50 % depletion); good: up to field capacity; wet: above it
 * (drainage, waterlogging).
 */
export function moistureState(
  moisture: number,
  limits: { fieldCapacity: number; wiltingPoint: number },
): MoistureState {
  if (moisture <= limits.wiltingPoint) return 'dry';
  if (moisture < (limits.wiltingPoint + limits.fieldCapacity) / 2) return 'low';
  if (moisture <= limits.fieldCapacity) return 'good';
  return 'wet';
}
