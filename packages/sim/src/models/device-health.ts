import type { Random } from '../random';
import type { Environment } from './environment';
import { SteppedModel, clamp, round, type SimValues } from './physics-model';

/**
 * What every field RTU reports besides its measurements: a solar-charged battery that sags at
 * night, and a radio signal that wanders.
 */
export class DeviceHealthModel extends SteppedModel {
  private battery: number;
  private signal: number;

  constructor(
    private readonly env: Environment,
    private readonly random: Random,
    start: number,
  ) {
    super(start);
    this.battery = random.between(12.3, 13);
    this.signal = random.between(-90, -60);
  }

  protected step(now: number, dt: number): void {
    const charging = this.env.radiation(now) > 150;
    this.battery = clamp(this.battery + ((charging ? 0.05 : -0.02) * dt) / 3600, 11.6, 13.6);
    this.signal = clamp(this.signal + this.random.normal(0, 0.6) * Math.sqrt(dt / 60), -115, -51);
  }

  values(): SimValues {
    return { batteryVoltage: round(this.battery, 2), signalStrength: Math.round(this.signal) };
  }
}
