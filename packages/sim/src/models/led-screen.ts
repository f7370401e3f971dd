import type { Random } from '../random';
import type { Environment } from './environment';
import {
  SteppedModel,
  numberParam,
  round,
  type CommandOutcome,
  type SimValues,
} from './physics-model';

/** LED screen: on or off, brightness following daylight unless set, the program it shows. */
export class LedScreenModel extends SteppedModel {
  private power = true;
  private manualBrightness: number | undefined;
  private program = 'P1';
  private temperature: number;

  constructor(
    private readonly env: Environment,
    random: Random,
    start: number,
  ) {
    super(start);
    this.temperature = random.between(25, 35);
  }

  protected step(now: number): void {
    // The cabinet warms with the sun and with its own light.
    this.temperature =
      this.env.airTemperature(now) + (this.power ? 8 : 0) + this.env.radiation(now) / 100;
  }

  private brightness(): number {
    if (!this.power) return 0;
    if (this.manualBrightness !== undefined) return this.manualBrightness;
    // Bright enough to read in the sun, dimmed at night so it does not glare.
    return Math.round(35 + Math.min(65, this.env.radiation(this.time) / 10));
  }

  override command(name: string, params: Record<string, unknown>): CommandOutcome | undefined {
    switch (name) {
      case 'powerOn':
      case 'powerOff':
        this.power = name === 'powerOn';
        return { ok: true };
      case 'setBrightness': {
        const brightness = numberParam(params, 'brightness', Number.NaN);
        if (!(brightness >= 0 && brightness <= 100))
          return { ok: false, message: 'brightness must be 0-100' };
        this.manualBrightness = Math.round(brightness);
        return { ok: true };
      }
      case 'setProgram': {
        const program = params['programId'] ?? params['program'];
        if (typeof program !== 'string' || program.length === 0)
          return { ok: false, message: 'programId is required' };
        this.program = program.slice(0, 64);
        return { ok: true };
      }
      default:
        return undefined;
    }
  }

  override setProperty(key: string, value: unknown): boolean {
    if (key === 'brightness')
      return this.command('setBrightness', { brightness: value })?.ok ?? false;
    if (key === 'powerOn' && typeof value === 'boolean') this.power = value;
    else return false;
    return true;
  }

  values(): SimValues {
    return {
      powerOn: this.power,
      brightness: this.brightness(),
      program: this.program,
      temperature: round(this.temperature, 1),
    };
  }
}
