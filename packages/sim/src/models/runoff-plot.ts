import type { Random } from '../random';
import type { Environment } from './environment';
import { SteppedModel, approach, clamp, round, type SimValues } from './physics-model';

/** A standard runoff plot, 5 m × 20 m (the server's `plotArea` default). */
const PLOT_AREA = 100; // m²
/** How fast the plot's outflow follows the rain excess (a linear reservoir), s. */
const ROUTING_SECONDS = 900;

/**
 * A runoff plot: its own tipping-bucket gauge, a flume at the outlet and a sediment sampler.
 * Part of the rain runs off, more as the soil wets (the coefficient rises from 0.1 to 0.6 with a
 * storm and dries back over a day); the outflow follows the excess through a linear reservoir,
 * and the runoff carries more soil the faster it flows.
 */
export class RunoffPlotModel extends SteppedModel {
  private wetness = 0;
  /** Outflow, mm/h over the plot. */
  private outflow = 0;
  private lastRead: number;

  constructor(
    private readonly env: Environment,
    private readonly random: Random,
    start: number,
  ) {
    super(start);
    this.lastRead = start;
  }

  protected step(now: number, dt: number): void {
    const rain = this.env.rainRate(now);
    this.wetness =
      rain > 0
        ? approach(this.wetness, 1, dt * rain, 20 * 3600)
        : approach(this.wetness, 0, dt, 86_400);
    const excess = rain * (0.1 + 0.5 * this.wetness);
    this.outflow = approach(this.outflow, excess, dt, ROUTING_SECONDS);
    if (this.outflow < 1e-4) this.outflow = 0;
  }

  /** `rainfall` is the rain since the previous reading. */
  values(): SimValues {
    const now = this.time;
    const rainfall = this.env.rainBetween(this.lastRead, now);
    this.lastRead = now;
    const litres = (this.outflow * PLOT_AREA) / 3600; // 1 mm over 1 m² is 1 L
    const concentration =
      litres > 0
        ? clamp(3 + 25 * this.outflow ** 0.7 * (1 + this.random.normal(0, 0.05)), 0, 100)
        : 0;
    return {
      rainfall: round(rainfall, 1),
      flow: round(litres, 4),
      sedimentConcentration: round(concentration, 3),
      sedimentDischarge: round(litres * concentration, 4),
      turbidity: round(clamp(concentration * 650, 0, 4000), 1),
      // An H-flume's head for its flow (Q ≈ 0.27·h^2.5 L/s with h in cm, small flumes).
      waterLevel: round((litres / 0.27) ** 0.4 / 100, 3),
    };
  }
}
