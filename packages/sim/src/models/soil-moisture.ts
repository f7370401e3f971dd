import type { Random } from '../random';
import type { Environment } from './environment';
import { SteppedModel, approach, clamp, round, type SimValues } from './physics-model';

/** Probe depths, cm, and the layer thickness (mm) each sensor stands for. */
export const SOIL_DEPTHS = [10, 20, 40, 60] as const;
const THICKNESS_MM = [150, 150, 200, 200];
/** Share of the crop's water uptake taken from each layer (roots are shallow). */
const ROOT_SHARE = [0.4, 0.3, 0.2, 0.1];

export interface SoilOptions {
  /** Volumetric water content at field capacity and wilting point, %: a loam. */
  fieldCapacity?: number;
  wiltingPoint?: number;
  saturation?: number;
  /** Water applied by irrigation at the current time, mm/h (a valve of the same field open). */
  irrigation?: () => number;
  /** Crop coefficient: crop evapotranspiration = kc * ET0. */
  kc?: number;
}

/**
 * Multi-depth soil moisture: a layered bucket. Rain and irrigation infiltrate the top layer,
 * water above field capacity drains downward, the crop draws by evapotranspiration weighted by
 * roots and limited as the soil nears the wilting point.
 */
export class SoilMoistureModel extends SteppedModel {
  readonly fieldCapacity: number;
  readonly wiltingPoint: number;
  private readonly saturation: number;
  private readonly theta: number[];
  private readonly temperature: number[];
  private readonly irrigation: () => number;
  private readonly kc: number;

  constructor(
    private readonly env: Environment,
    random: Random,
    start: number,
    options: SoilOptions = {},
  ) {
    super(start);
    this.fieldCapacity = options.fieldCapacity ?? 32;
    this.wiltingPoint = options.wiltingPoint ?? 12;
    this.saturation = options.saturation ?? 45;
    this.irrigation = options.irrigation ?? (() => 0);
    this.kc = options.kc ?? 0.9;
    const base = random.between(this.wiltingPoint + 8, this.fieldCapacity - 2);
    this.theta = SOIL_DEPTHS.map((_, i) => base + i * 1.5);
    this.temperature = SOIL_DEPTHS.map(() => env.airTemperature(start));
  }

  /** Volumetric water content per depth, % (10, 20, 40, 60 cm). */
  moisture(): number[] {
    return [...this.theta];
  }

  protected step(now: number, dt: number): void {
    const hours = dt / 3600;
    const fc = this.fieldCapacity;
    const wp = this.wiltingPoint;
    let input = (this.env.rainRate(now) + this.irrigation()) * hours;
    // Infiltration fills layers top-down up to saturation; what does not fit runs off.
    for (let i = 0; i < this.theta.length && input > 0; i++) {
      const room = ((this.saturation - this.theta[i]!) / 100) * THICKNESS_MM[i]!;
      const taken = Math.min(room, input);
      this.theta[i]! += (taken / THICKNESS_MM[i]!) * 100;
      input -= taken;
    }
    // Drainage: water above field capacity moves down within a day or so.
    for (let i = 0; i < this.theta.length; i++) {
      const excess = this.theta[i]! - fc;
      if (excess <= 0) continue;
      const moved = excess * (1 - Math.exp(-dt / (8 * 3600)));
      this.theta[i]! -= moved;
      const next = i + 1;
      if (next < this.theta.length)
        this.theta[next]! += (moved * THICKNESS_MM[i]!) / THICKNESS_MM[next]!;
    }
    // Uptake: crop ET shared by roots, reduced linearly below 70% of available water.
    const et = this.kc * this.env.et0Rate(now) * hours;
    for (let i = 0; i < this.theta.length; i++) {
      const available = (this.theta[i]! - wp) / (fc - wp);
      const stress = clamp(available / 0.7, 0, 1);
      this.theta[i]! -= ((et * ROOT_SHARE[i]! * stress) / THICKNESS_MM[i]!) * 100;
      this.theta[i] = clamp(this.theta[i]!, wp * 0.6, this.saturation);
    }
    // Soil temperature follows the air, slower and damped with depth.
    const air = this.env.airTemperature(now);
    this.temperature.forEach((value, i) => {
      this.temperature[i] = approach(value, air, dt, (3 + i * 6) * 3600);
    });
  }

  values(): SimValues {
    const values: SimValues = {};
    SOIL_DEPTHS.forEach((depth, i) => {
      values[`soilMoisture${depth}`] = round(this.theta[i]!, 1);
      values[`soilTemperature${depth}`] = round(this.temperature[i]!, 1);
    });
    // Pore-water EC rises as the soil dries (the same salts in less water).
    values['soilEc20'] = round(clamp(0.25 * (this.fieldCapacity / this.theta[1]!), 0.05, 3), 2);
    return values;
  }
}
