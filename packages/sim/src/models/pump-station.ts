import type { Random } from '../random';
import {
  SteppedModel,
  approach,
  clamp,
  numberParam,
  round,
  type CommandOutcome,
  type SimValues,
} from './physics-model';

/** Rated point of each pump at 50 Hz. */
const RATED_FLOW = 120; // m³/h
const RATED_PRESSURE = 0.35; // MPa
const RATED_POWER = 15; // kW
const MIN_FREQUENCY = 20;
const MAX_FREQUENCY = 50;
/** Below this forebay level a pump would run dry: starting is refused (DOMAINS.md). */
export const DRY_RUN_LEVEL = 0.8;

interface Pump {
  running: boolean;
  targetFrequency: number;
  frequency: number;
}

/**
 * A pump station with pumps on variable-frequency drives, fed from a forebay. Affinity laws:
 * flow grows with the frequency, pressure with its square, power with its cube.
 */
export class PumpStationModel extends SteppedModel {
  private readonly pumps: Pump[];
  private energy: number;
  private volume: number;
  private forebay: number;
  private noise = 0;

  constructor(
    private readonly random: Random,
    start: number,
    pumpCount = 2,
  ) {
    super(start, 5_000);
    this.pumps = Array.from({ length: pumpCount }, () => ({
      running: false,
      targetFrequency: 45,
      frequency: 0,
    }));
    this.energy = round(random.between(1000, 20000), 1);
    this.volume = round(random.between(10000, 200000), 1);
    this.forebay = random.between(2, 3);
  }

  isRunning(): boolean {
    return this.pumps.some((pump) => pump.running);
  }

  private stationFlow(): number {
    return this.pumps.reduce((sum, pump) => sum + RATED_FLOW * (pump.frequency / 50), 0);
  }

  protected step(_now: number, dt: number): void {
    for (const pump of this.pumps) {
      const target = pump.running ? pump.targetFrequency : 0;
      // The drive ramps at about 2 Hz/s.
      pump.frequency += clamp(target - pump.frequency, -2 * dt, 2 * dt);
      this.energy += (RATED_POWER * (pump.frequency / 50) ** 3 * dt) / 3600;
    }
    const flow = this.stationFlow();
    this.volume += (flow * dt) / 3600;
    // The forebay (500 m²) is refilled by the canal at about 150 m³/h and drawn by the pumps.
    this.forebay = clamp(this.forebay + ((150 - flow) / 500) * (dt / 3600), 0.3, 3.5);
    this.noise = approach(this.noise, this.random.normal(0, 1), dt, 20);
    // Dry-run protection trips the pumps.
    if (this.forebay < DRY_RUN_LEVEL * 0.75) for (const pump of this.pumps) pump.running = false;
  }

  override command(name: string, params: Record<string, unknown>): CommandOutcome | undefined {
    if (name !== 'startPump' && name !== 'stopPump' && name !== 'setFrequency') return undefined;
    const pumpNo = numberParam(params, 'pumpNo', 1);
    const pump = this.pumps[pumpNo - 1];
    if (!pump || !Number.isInteger(pumpNo))
      return { ok: false, message: `pumpNo must be 1-${this.pumps.length}` };
    if (name === 'stopPump') {
      pump.running = false;
      return { ok: true };
    }
    if (name === 'setFrequency' || params['frequency'] !== undefined) {
      const frequency = numberParam(params, 'frequency', Number.NaN);
      if (!(frequency >= MIN_FREQUENCY && frequency <= MAX_FREQUENCY))
        return { ok: false, message: `frequency must be ${MIN_FREQUENCY}-${MAX_FREQUENCY} Hz` };
      pump.targetFrequency = frequency;
    }
    if (name === 'startPump') {
      if (this.forebay < DRY_RUN_LEVEL)
        return {
          ok: false,
          message: `forebay level ${round(this.forebay, 2)} m is below the dry-run level ${DRY_RUN_LEVEL} m`,
        };
      pump.running = true;
    }
    return { ok: true };
  }

  values(): SimValues {
    const values: SimValues = {};
    const voltage = 380 + this.noise * 2;
    this.pumps.forEach((pump, i) => {
      const ratio = pump.frequency / 50;
      const on = pump.frequency > 0.1;
      const power = RATED_POWER * ratio ** 3 * (1 + this.noise * 0.01);
      const prefix = `pump${i + 1}`;
      values[`${prefix}Running`] = pump.running;
      values[`${prefix}Frequency`] = round(pump.frequency, 1);
      values[`${prefix}Current`] = on
        ? round((power * 1000) / (Math.sqrt(3) * voltage * 0.85) + 1.5, 2)
        : 0;
      values[`${prefix}Voltage`] = round(voltage, 1);
      values[`${prefix}Power`] = on ? round(power, 2) : 0;
    });
    const flow = this.stationFlow();
    // Parallel pumps share one header: pressure follows the fastest pump.
    const fastest = Math.max(0, ...this.pumps.map((pump) => pump.frequency / 50));
    return {
      ...values,
      outletPressure:
        flow > 0.1 ? round(Math.max(0, RATED_PRESSURE * fastest ** 2 + this.noise * 0.004), 3) : 0,
      flow: flow > 0.1 ? round(Math.max(0, flow + this.noise * 0.8), 2) : 0,
      cumulativeVolume: round(this.volume, 1),
      energy: round(this.energy, 1),
      forebayLevel: round(this.forebay, 3),
    };
  }
}
