import type { Random } from '../random';
import { DailyPlan } from './daily-plan';
import type { Environment } from './environment';
import {
  SteppedModel,
  approach,
  clamp,
  numberParam,
  round,
  type CommandOutcome,
  type SimValues,
} from './physics-model';

/** Flow through one open channel at the line's normal pressure, m³/h. */
const CHANNEL_FLOW = 12;
const MAX_DURATION_MINUTES = 24 * 60;
/** Auto operation: each channel of a rotation day runs this long, one after the other. */
const ROTATION_MINUTES = 45;

export interface IrrigationValveOptions {
  channels?: number;
  /**
   * Operated like the demo's fields: every `everyDays` days (2-4, per controller) its channels
   * open one after the other for 45 min each from a morning hour, closing themselves (the
   * valves' own timer, as openValve with durationMinutes).
   */
  autoOperate?: boolean;
}

/**
 * Field irrigation controller: a solar/battery RTU driving latching valves. An open valve lets
 * flow rise within seconds; an open valve with a duration closes itself when it has run.
 */
export class IrrigationValveModel extends SteppedModel {
  private readonly open: boolean[];
  private readonly closeAt: (number | undefined)[];
  private flow = 0;
  private volume: number;
  private battery: number;
  private signal: number;

  readonly channels: number;
  private readonly plan: DailyPlan | undefined;

  constructor(
    private readonly env: Environment,
    private readonly random: Random,
    start: number,
    options: IrrigationValveOptions = {},
  ) {
    super(start, 5_000);
    const channels = options.channels ?? 4;
    this.channels = channels;
    this.open = Array.from({ length: channels }, () => false);
    this.closeAt = Array.from({ length: channels }, () => undefined);
    this.volume = round(random.between(100, 5000), 1);
    this.battery = random.between(12.2, 12.9);
    this.signal = random.between(-85, -60);
    if (options.autoOperate) {
      const everyDays = 2 + Math.floor(random.next() * 3);
      const phase = Math.floor(random.next() * everyDays);
      const from = 5 + Math.floor(random.next() * 6);
      this.plan = new DailyPlan(
        env.lng,
        Array.from({ length: channels }, (_, i) => ({
          hour: from + (i * ROTATION_MINUTES) / 60,
          on: (day: number) => day % everyDays === phase,
          act: () =>
            this.command('openValve', { channel: i + 1, durationMinutes: ROTATION_MINUTES }),
        })),
        start,
      );
    }
  }

  /** Any valve open: the field behind the controller is being watered. */
  isOpen(): boolean {
    return this.open.some(Boolean);
  }

  protected step(now: number, dt: number): void {
    this.plan?.advance(now);
    this.closeAt.forEach((at, i) => {
      if (at !== undefined && now >= at) {
        this.open[i] = false;
        this.closeAt[i] = undefined;
      }
    });
    const openCount = this.open.filter(Boolean).length;
    // More open channels share the line: each gets a little less.
    const target = openCount * CHANNEL_FLOW * (1 - 0.05 * Math.max(0, openCount - 1));
    this.flow = approach(this.flow, target, dt, 15);
    this.volume += (this.flow * dt) / 3600;
    // The panel charges in proportion to the light (a winter day still tops the battery up); the
    // RTU draws a little all the time.
    const charge = 0.03 * Math.min(1, this.env.radiation(now) / 400) - 0.004;
    this.battery = clamp(this.battery + (charge * dt) / 3600, 11.2, 13.8);
    this.signal = clamp(this.signal + this.random.normal(0, 0.5) * Math.sqrt(dt / 60), -110, -50);
  }

  /** A panel's voltage rises steeply with the first light and levels off near 21 V. */
  private solarVoltage(now: number): number {
    return clamp(21 * Math.min(1, this.env.radiation(now) / 250), 0, 22);
  }

  override command(name: string, params: Record<string, unknown>): CommandOutcome | undefined {
    if (name !== 'openValve' && name !== 'closeValve') return undefined;
    const channel = numberParam(params, 'channel', 0);
    if (!Number.isInteger(channel) || channel < 0 || channel > this.channels)
      return { ok: false, message: `channel must be 1-${this.channels}` };
    // Channel 0 or no channel: every valve of the controller.
    const targets = channel === 0 ? this.open.map((_, i) => i) : [channel - 1];
    if (name === 'closeValve') {
      for (const i of targets) {
        this.open[i] = false;
        this.closeAt[i] = undefined;
      }
      return { ok: true };
    }
    const minutes = numberParam(params, 'durationMinutes', 0);
    if (minutes < 0 || minutes > MAX_DURATION_MINUTES)
      return { ok: false, message: `durationMinutes must be 0-${MAX_DURATION_MINUTES}` };
    if (this.battery < 11.5) return { ok: false, message: 'battery too low to drive the valve' };
    for (const i of targets) {
      this.open[i] = true;
      this.closeAt[i] = minutes > 0 ? this.time + minutes * 60_000 : undefined;
    }
    this.battery -= 0.01; // latching pulse
    return { ok: true };
  }

  values(): SimValues {
    const values: SimValues = {};
    this.open.forEach((open, i) => {
      values[`valve${i + 1}State`] = open ? 1 : 0;
    });
    const open = this.flow > 0.05;
    return {
      ...values,
      flow: open ? round(this.flow, 2) : 0,
      pressure: round(clamp(0.3 - this.flow * 0.002 + this.random.normal(0, 0.002), 0, 1), 3),
      cumulativeVolume: round(this.volume, 2),
      batteryVoltage: round(this.battery, 2),
      solarVoltage: round(this.solarVoltage(this.time), 2),
      signalStrength: Math.round(this.signal),
    };
  }
}
