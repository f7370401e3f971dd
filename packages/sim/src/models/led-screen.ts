import {
  ledPagesSchema,
  ledProgramProblems,
  LED_CONTENT_MAX_CHARS,
  type LedPage,
} from '@shuili/contract';
import type { Random } from '../random';
import type { Environment } from './environment';
import {
  SteppedModel,
  numberParam,
  round,
  type CommandOutcome,
  type SimValues,
} from './physics-model';

/** A P10 cabinet board: 192 × 96 pixels. */
export const LED_SIM_RESOLUTION = { width: 192, height: 96 };

/**
 * LED screen: on or off, brightness following daylight unless set, and the program it shows.
 * It takes a program only when it can draw it (pages that parse, every element inside its own
 * resolution) and reports its code as `program` (blank until it was given one, as a controller
 * with an empty memory). Live values arrive by `updateValues` and are kept for the bound
 * elements it draws.
 */
export class LedScreenModel extends SteppedModel {
  private power = true;
  private manualBrightness: number | undefined;
  private program = '';
  private pages: LedPage[] = [];
  private liveValues: Record<string, number> = {};
  private temperature: number;

  constructor(
    private readonly env: Environment,
    random: Random,
    start: number,
    private readonly resolution = LED_SIM_RESOLUTION,
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

  /** A live value it holds (`<deviceId>.<property>`), as its bound elements draw it. */
  shownValue(key: string): number | undefined {
    return this.liveValues[key];
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
      case 'setProgram':
        return this.setProgram(params);
      case 'updateValues': {
        const values = parseJson(params['values']);
        if (!values || typeof values !== 'object' || Array.isArray(values))
          return { ok: false, message: 'values must be a JSON object' };
        for (const [key, value] of Object.entries(values as Record<string, unknown>))
          if (typeof value === 'number' && Number.isFinite(value)) this.liveValues[key] = value;
        return { ok: true };
      }
      default:
        return undefined;
    }
  }

  private setProgram(params: Record<string, unknown>): CommandOutcome {
    const program = params['programId'] ?? params['program'];
    if (typeof program !== 'string' || program.length === 0 || program.length > 64)
      return { ok: false, message: 'programId is required' };
    const text = params['content'];
    if (typeof text !== 'string' || text.length > LED_CONTENT_MAX_CHARS)
      return { ok: false, message: 'content is required' };
    const content = parseJson(text) as
      { width?: unknown; height?: unknown; pages?: unknown; values?: unknown } | undefined;
    const pages = ledPagesSchema.safeParse(content?.pages);
    if (!pages.success) return { ok: false, message: 'content: pages are not a program' };
    const { width, height } = this.resolution;
    if (
      (typeof content?.width === 'number' && content.width > width) ||
      (typeof content?.height === 'number' && content.height > height)
    )
      return {
        ok: false,
        message: `program ${String(content?.width)} × ${String(content?.height)} is larger than the screen (${width} × ${height})`,
      };
    const outside = ledProgramProblems(pages.data, this.resolution).find(
      (problem) => problem.key === 'led.elementOutside',
    );
    if (outside)
      return {
        ok: false,
        message: `${outside.field} lies outside the screen (${width} × ${height})`,
      };
    this.program = program;
    this.pages = pages.data;
    this.liveValues = {};
    const values = content?.values;
    if (values && typeof values === 'object')
      this.command('updateValues', { values: JSON.stringify(values) });
    return { ok: true };
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
      width: this.resolution.width,
      height: this.resolution.height,
      temperature: round(this.temperature, 1),
    };
  }

  /** How many pages the program showing has (0: none). */
  get pageCount(): number {
    return this.pages.length;
  }
}

function parseJson(text: unknown): unknown {
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
