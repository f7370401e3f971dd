import type { Random } from '../random';
import type { Environment } from './environment';
import { SteppedModel, round, type SimValues } from './physics-model';

export interface WaterLevelOptions {
  /** Level with no recent rain, m (gauge datum). */
  baseLevel?: number;
  /** Level rise per mm of rain on the catchment, m/mm. */
  risePerMm?: number;
  /** Recession time constant after rain, hours. */
  recessionHours?: number;
}

/**
 * A water level fed by rain: a linear reservoir. Rain on the catchment raises the level, which
 * falls back exponentially towards the base level once the rain stops.
 */
export class WaterLevelModel extends SteppedModel {
  readonly baseLevel: number;
  private readonly risePerMm: number;
  private readonly recessionSeconds: number;
  private storage = 0;
  private ripple = 0;

  constructor(
    private readonly env: Environment,
    private readonly random: Random,
    start: number,
    options: WaterLevelOptions = {},
  ) {
    super(start);
    this.baseLevel = options.baseLevel ?? 1.2;
    this.risePerMm = options.risePerMm ?? 0.02;
    this.recessionSeconds = (options.recessionHours ?? 10) * 3600;
  }

  /** Water level, m. */
  level(): number {
    return this.baseLevel + this.storage + this.ripple;
  }

  protected step(now: number, dt: number): void {
    const rain = (this.env.rainRate(now) * dt) / 3600;
    this.storage = this.storage * Math.exp(-dt / this.recessionSeconds) + rain * this.risePerMm;
    this.ripple = this.random.normal(0, 0.003);
  }

  values(): SimValues {
    return { waterLevel: round(this.level(), 3) };
  }
}
