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

/** EC and pH of the source water. */
const WATER_EC = 0.4; // mS/cm
const WATER_PH = 7.4;
/** EC added per L/h of stock solution in the main flow, and pH drop per L/h of acid. */
const EC_PER_LH = 0.006;
const PH_PER_LH = 0.02;
const TANK_LITRES = 1000;
const CHANNELS = ['A', 'B', 'C', 'Acid'] as const;

/** A program for one valve group: clear water, fertilizer, clear water again (minutes). */
interface Program {
  group: number;
  fertilizerFrom: number;
  fertilizerUntil: number;
  end: number;
}

export interface WaterFertilizerOptions {
  /** The site's clock (needed by autoOperate). */
  env?: Environment;
  /**
   * Operated like the demo's machines: a program every morning at 08:00 for the next valve
   * group in turn (15 min water, 90 min fertilizer, 15 min water).
   */
  autoOperate?: boolean;
}

/** EC and pH sensors' noise per 5 s, mS/cm and pH units. */
const EC_NOISE = 0.004;
const PH_NOISE = 0.004;

/**
 * Fertigation machine: injectors suck stock solutions (A, B, C) and acid into the irrigation
 * water; their rates follow the recipe's targets, so EC and pH approach them within minutes,
 * and the tanks empty as they are used. A program waters, fertilizes, then rinses the lines.
 */
export class WaterFertilizerModel extends SteppedModel {
  private program: Program | undefined;
  private targetEc = 1.8;
  private targetPh = 6.2;
  private ec = WATER_EC;
  private ph = WATER_PH;
  private readonly suction = [0, 0, 0, 0];
  private readonly tanks: number[];
  private mainFlow = 0;
  private readonly plan: DailyPlan | undefined;

  constructor(
    private readonly random: Random,
    start: number,
    options: WaterFertilizerOptions = {},
  ) {
    super(start, 5_000);
    this.tanks = CHANNELS.map(() => random.between(40, 100));
    if (options.autoOperate && options.env) {
      const program = () =>
        this.command('startProgram', {
          group: 1 + (Math.floor(this.time / 86_400_000) % 4),
          waterBeforeMinutes: 15,
          fertilizerMinutes: 90,
          waterAfterMinutes: 15,
        });
      this.plan = new DailyPlan(options.env.lng, [{ hour: 8, act: program }], start);
    }
  }

  isRunning(): boolean {
    return this.program !== undefined;
  }

  private fertilizing(now: number): boolean {
    const program = this.program;
    return !!program && now >= program.fertilizerFrom && now < program.fertilizerUntil;
  }

  protected step(now: number, dt: number): void {
    this.plan?.advance(now);
    if (this.program && now >= this.program.end) this.program = undefined;
    this.mainFlow = approach(this.mainFlow, this.program ? 15 : 0, dt, 10);
    // Injector set points from the recipe: A and B equal, C half of them, acid for the pH.
    const stock = Math.max(0, this.targetEc - WATER_EC) / EC_PER_LH / 2.5;
    const acid = Math.max(0, WATER_PH - this.targetPh) / PH_PER_LH;
    const setPoints = this.fertilizing(now) ? [stock, stock, stock / 2, acid] : [0, 0, 0, 0];
    setPoints.forEach((target, i) => {
      const available = this.tanks[i]! > 0.5 ? target : 0;
      this.suction[i] = Math.max(0, approach(this.suction[i]!, available, dt, 20));
      this.tanks[i] = this.tanks[i]! - ((this.suction[i]! * dt) / 3600 / TANK_LITRES) * 100;
      // An operator refills a nearly empty tank.
      if (this.tanks[i]! < 5) this.tanks[i] = 100;
    });
    const [a, b, c, acidFlow] = this.suction as [number, number, number, number];
    // Mixing in the line takes about a minute and a half to show at the sensors.
    this.ec = approach(this.ec, WATER_EC + EC_PER_LH * (a + b + c), dt, 90);
    this.ph = approach(this.ph, WATER_PH - PH_PER_LH * acidFlow, dt, 90);
    // The sensors wander around the mix (a chart of EC against its target is never a ruler).
    const scale = Math.sqrt(dt / 5);
    this.ec += this.random.normal(0, EC_NOISE) * scale;
    this.ph += this.random.normal(0, PH_NOISE) * scale;
  }

  override command(name: string, params: Record<string, unknown>): CommandOutcome | undefined {
    switch (name) {
      case 'startProgram': {
        if (this.program)
          return { ok: false, message: `program of group ${this.program.group} is running` };
        const minutes = (key: string, fallback: number) =>
          clamp(numberParam(params, key, fallback), 0, 240) * 60_000;
        const from = this.time + minutes('waterBeforeMinutes', 5);
        const until = from + minutes('fertilizerMinutes', 30);
        this.program = {
          group: numberParam(params, 'group', 1),
          fertilizerFrom: from,
          fertilizerUntil: until,
          end: until + minutes('waterAfterMinutes', 10),
        };
        return { ok: true };
      }
      case 'stopProgram':
        this.program = undefined;
        return { ok: true };
      case 'setRecipe': {
        const ec = numberParam(params, 'targetEc', this.targetEc);
        const ph = numberParam(params, 'targetPh', this.targetPh);
        if (!(ec >= WATER_EC && ec <= 5))
          return { ok: false, message: `targetEc must be ${WATER_EC}-5 mS/cm` };
        if (!(ph >= 4 && ph <= WATER_PH))
          return { ok: false, message: `targetPh must be 4-${WATER_PH}` };
        this.targetEc = ec;
        this.targetPh = ph;
        return { ok: true };
      }
      default:
        return undefined;
    }
  }

  values(): SimValues {
    const values: SimValues = {
      running: this.isRunning(),
      ec: round(clamp(this.ec, 0, 10), 2),
      ph: round(clamp(this.ph, 3, 10), 2),
      mainFlow: round(this.mainFlow, 2),
      mainPressure: round(this.mainFlow > 1 ? 0.25 + this.random.normal(0, 0.003) : 0.02, 3),
    };
    CHANNELS.forEach((channel, i) => {
      values[`channel${channel}Flow`] = round(this.suction[i]!, 1);
      values[`tank${channel}Level`] = round(clamp(this.tanks[i]!, 0, 100), 1);
    });
    return values;
  }
}
