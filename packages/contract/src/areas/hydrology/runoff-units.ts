/** Cubic metres per second in one unit of flow, for the units products report flow in. */
const FLOW_TO_M3_PER_S: Record<string, number> = {
  'm³/s': 1,
  'm3/s': 1,
  'L/s': 0.001,
  'l/s': 0.001,
  'm³/h': 1 / 3600,
  'm3/h': 1 / 3600,
  'L/min': 1 / 60_000,
  'l/min': 1 / 60_000,
  'L/h': 1 / 3_600_000,
};

/** Kilograms per cubic metre in one unit of sediment concentration. */
const CONCENTRATION_TO_KG_PER_M3: Record<string, number> = {
  'kg/m³': 1,
  'kg/m3': 1,
  'g/L': 1,
  'g/l': 1,
  'mg/L': 0.001,
  'mg/l': 0.001,
};

/** m³/s per unit of a thing model's flow unit; undefined for a unit that is no flow. */
export function flowScale(unit: string | undefined): number | undefined {
  return unit === undefined ? undefined : FLOW_TO_M3_PER_S[unit.trim()];
}

/** kg/m³ per unit of a thing model's concentration unit; undefined for one it does not know. */
export function concentrationScale(unit: string | undefined): number | undefined {
  return unit === undefined ? undefined : CONCENTRATION_TO_KG_PER_M3[unit.trim()];
}
