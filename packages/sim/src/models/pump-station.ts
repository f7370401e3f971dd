import type { Random } from '../random';
import { DailyPlan } from './daily-plan';
import type { Environment } from './environment';
import { dayIndex, hashNoise } from './sky';
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
/** Forebay surface, m²: 100 m³ more or less moves the level 0.2 m. */
const FOREBAY_AREA = 500;
/** The canal's supply to the forebay, m³/h: around this, different every day. */
const SUPPLY = 120;

export interface PumpStationOptions {
  pumpCount?: number;
  /** The site's weather and clock: the canal supply varies by day (default: a steady supply). */
  env?: Environment;
  /**
   * Operated like the demo's stations: pump 1 runs 06:00-20:00 at 42 Hz and pump 2 joins it
   * 09:00-17:00 at 45 Hz, so the forebay falls through the day (on a day of low supply below
   * 1 m, down to the pumps' own dry-run trip) and recovers at night. Commands still act at once
   * in between.
   */
  autoOperate?: boolean;
}

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
  private readonly env: Environment | undefined;
  private readonly plan: DailyPlan | undefined;
  /** The day-to-day variation of the canal's supply. */
  private readonly seed: number;

  constructor(
    private readonly random: Random,
    start: number,
    options: PumpStationOptions = {},
  ) {
    super(start, 5_000);
    const pumpCount = options.pumpCount ?? 2;
    this.env = options.env;
    this.pumps = Array.from({ length: pumpCount }, () => ({
      running: false,
      targetFrequency: 45,
      frequency: 0,
    }));
    this.energy = round(random.between(1000, 20000), 1);
    this.volume = round(random.between(10000, 200000), 1);
    this.forebay = random.between(2, 3);
    this.seed = Math.floor(random.next() * 2 ** 31);
    if (options.autoOperate && options.env) {
      const run = (pumpNo: number, frequency: number) => () =>
        this.command('startPump', { pumpNo, frequency });
      const stop = (pumpNo: number) => () => this.command('stopPump', { pumpNo });
      this.plan = new DailyPlan(
        options.env.lng,
        [
          { hour: 6, act: run(1, 42) },
          { hour: 9, act: run(2, 45) },
          { hour: 17, act: stop(2) },
          { hour: 20, act: stop(1) },
        ],
        start,
      );
    }
  }

  /** The canal's supply now, m³/h: a day of low water, a day of plenty. */
  private supply(now: number): number {
    if (!this.env) return 150;
    return SUPPLY + 55 * hashNoise(this.seed, dayIndex(now, this.env.lng));
  }

  isRunning(): boolean {
    return this.pumps.some((pump) => pump.running);
  }

  private stationFlow(): number {
    return this.pumps.reduce((sum, pump) => sum + RATED_FLOW * (pump.frequency / 50), 0);
  }

  protected step(now: number, dt: number): void {
    this.plan?.advance(now);
    for (const pump of this.pumps) {
      const target = pump.running ? pump.targetFrequency : 0;
      // The drive ramps at about 2 Hz/s.
      pump.frequency += clamp(target - pump.frequency, -2 * dt, 2 * dt);
      this.energy += (RATED_POWER * (pump.frequency / 50) ** 3 * dt) / 3600;
    }
    const flow = this.stationFlow();
    this.volume += (flow * dt) / 3600;
    // The forebay is refilled by the canal and drawn by the pumps; above 3 m it spills.
    const inflow = this.supply(now);
    this.forebay = clamp(this.forebay + ((inflow - flow) / FOREBAY_AREA) * (dt / 3600), 0.3, 3);
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
