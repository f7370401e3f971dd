import type { Random } from '../random';
import type { Environment } from './environment';
import { SteppedModel, approach, clamp, round, type SimValues } from './physics-model';
import { WaterLevelModel } from './water-level';

/** Rating curve Q = a·(H − H0)^b of the station's section (DOMAINS.md, bayonet stations). */
const RATING = { a: 6, h0: 0.3, b: 1.6 };
const CHANNEL_WIDTH = 4; // m

/**
 * Sediment, silt and watershed-outlet ("bayonet") stations: rain raises the level and the flow,
 * runoff carries soil so concentration and turbidity follow the flow, and the canal bed silts up
 * slowly until it is dredged.
 */
export class SedimentStationModel extends SteppedModel {
  private readonly level: WaterLevelModel;
  private concentration = 0.3;
  private siltDepth: number;
  private volume: number;

  constructor(
    env: Environment,
    private readonly random: Random,
    start: number,
  ) {
    super(start);
    this.level = new WaterLevelModel(env, random, start, {
      baseLevel: random.between(0.5, 0.9),
      risePerMm: 0.015,
      recessionHours: 6,
    });
    this.siltDepth = random.between(0.05, 0.3);
    this.volume = round(random.between(1e4, 1e6), 1);
  }

  private flow(): number {
    return RATING.a * Math.max(0, this.level.level() - RATING.h0) ** RATING.b;
  }

  protected step(now: number, dt: number): void {
    this.level.advance(now);
    const flow = this.flow();
    this.volume += flow * dt;
    // Concentration rises steeply with flow (rain washes soil in) and settles back afterwards.
    const target = 0.2 + 0.15 * flow ** 1.5;
    this.concentration = approach(this.concentration, target, dt, 1800);
    // Slow water drops its load: the bed rises a few mm a day; dredged above 0.8 m.
    this.siltDepth += ((0.004 + 0.001 * this.concentration) * dt) / 86_400;
    if (this.siltDepth > 0.8) this.siltDepth = this.random.between(0.02, 0.08);
  }

  values(): SimValues {
    const flow = this.flow();
    const level = this.level.level();
    const depth = Math.max(0.05, level - RATING.h0 * 0.5);
    const concentration = clamp(this.concentration * (1 + this.random.normal(0, 0.02)), 0, 200);
    return {
      waterLevel: round(level, 3),
      flow: round(flow, 3),
      velocity: round(clamp(flow / (CHANNEL_WIDTH * depth), 0, 10), 2),
      sedimentConcentration: round(concentration, 3),
      turbidity: round(clamp(concentration * 650, 0, 4000), 1),
      sedimentDischarge: round(flow * concentration, 3),
      cumulativeVolume: round(this.volume, 1),
      siltDepth: round(this.siltDepth, 3),
    };
  }
}
