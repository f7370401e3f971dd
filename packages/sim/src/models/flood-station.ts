import type { Random } from '../random';
import type { Environment } from './environment';
import { SteppedModel, round, type SimValues } from './physics-model';
import { WaterLevelModel } from './water-level';

/** Where the gauge's cumulative counter rolls over to zero (mm). */
const COUNTER_WRAP = 10_000;

/**
 * Flood station: a tipping-bucket rain gauge beside a water level gauge. It reports the rain
 * since its previous reading and its cumulative counter (which rolls over); the server sums the
 * 1 to 24 hour windows from those.
 */
export class FloodStationModel extends SteppedModel {
  private readonly level: WaterLevelModel;
  private lastRead: number;
  private counter: number;

  constructor(
    private readonly env: Environment,
    random: Random,
    start: number,
  ) {
    super(start);
    this.level = new WaterLevelModel(env, random, start, { baseLevel: random.between(1, 3) });
    this.lastRead = start;
    this.counter = random.between(0, 2_000);
  }

  protected step(now: number): void {
    this.level.advance(now);
  }

  /** `rainfall` is the rain since the previous reading. */
  values(): SimValues {
    const now = this.time;
    const rainfall = this.env.rainBetween(this.lastRead, now);
    this.lastRead = now;
    this.counter = (this.counter + rainfall) % COUNTER_WRAP;
    return {
      waterLevel: round(this.level.level(), 3),
      rainfall: round(rainfall, 1),
      rainfallTotal: round(this.counter, 1),
      batteryVoltage: round(12.6 + 0.4 * Math.sin(now / 7_000_000), 2),
    };
  }
}
