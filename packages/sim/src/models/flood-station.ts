import type { Random } from '../random';
import type { Environment } from './environment';
import { SteppedModel, round, type SimValues } from './physics-model';
import { WaterLevelModel } from './water-level';

const HOUR_MS = 3_600_000;

/** Flood station: a rain gauge (1 h / 3 h / 24 h accumulations) beside a water level gauge. */
export class FloodStationModel extends SteppedModel {
  private readonly level: WaterLevelModel;
  private lastRead: number;

  constructor(
    private readonly env: Environment,
    random: Random,
    start: number,
  ) {
    super(start);
    this.level = new WaterLevelModel(env, random, start, { baseLevel: random.between(1, 3) });
    this.lastRead = start;
  }

  protected step(now: number): void {
    this.level.advance(now);
  }

  /** `rainfall` is the rain since the previous reading. */
  values(): SimValues {
    const now = this.time;
    const rainfall = this.env.rainBetween(this.lastRead, now);
    this.lastRead = now;
    return {
      waterLevel: round(this.level.level(), 3),
      rainfall: round(rainfall, 1),
      rainfall1h: round(this.env.rainBetween(now - HOUR_MS, now), 1),
      rainfall3h: round(this.env.rainBetween(now - 3 * HOUR_MS, now), 1),
      rainfall24h: round(this.env.rainBetween(now - 24 * HOUR_MS, now), 1),
      batteryVoltage: round(12.6 + 0.4 * Math.sin(now / 7_000_000), 2),
    };
  }
}
