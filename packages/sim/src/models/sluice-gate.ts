import type { Random } from '../random';
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
import { WaterLevelModel } from './water-level';

const MAX_OPENING = 1.5; // m
const GATE_SPEED = 0.005; // m/s, a screw hoist
const GATE_WIDTH = 2; // m
const DISCHARGE_COEFFICIENT = 0.6;

/**
 * Canal sluice gate: the gate travels to a target opening; flow through it follows the orifice
 * law Q = Cd·b·e·√(2g·Δh) from the head between upstream and downstream levels.
 */
export class SluiceGateModel extends SteppedModel {
  private opening: number;
  private target: number;
  private readonly upstream: WaterLevelModel;
  private downstream = 0.6;
  private flow = 0;

  constructor(
    env: Environment,
    private readonly random: Random,
    start: number,
  ) {
    super(start, 5_000);
    this.opening = round(random.between(0, 0.6), 2);
    this.target = this.opening;
    this.upstream = new WaterLevelModel(env, random, start, {
      baseLevel: random.between(2.2, 2.8),
      risePerMm: 0.01,
    });
  }

  protected step(now: number, dt: number): void {
    this.opening += clamp(this.target - this.opening, -GATE_SPEED * dt, GATE_SPEED * dt);
    this.upstream.advance(now);
    const upstream = this.upstreamLevel();
    const head = Math.max(0, upstream - this.downstream);
    const opening = Math.min(this.opening, upstream);
    const flow = DISCHARGE_COEFFICIENT * GATE_WIDTH * opening * Math.sqrt(2 * 9.81 * head);
    this.flow = flow;
    // The downstream reach fills with the flow (a rough stage-discharge relation).
    this.downstream = approach(this.downstream, 0.5 + 0.45 * flow ** 0.6, dt, 300);
  }

  private moving(): number {
    const gap = this.target - this.opening;
    return Math.abs(gap) < 0.001 ? 0 : Math.sign(gap);
  }

  private upstreamLevel(): number {
    // Drawing water lowers the upstream pool a little.
    return Math.max(0.2, this.upstream.level() - 0.05 * this.flow);
  }

  override command(name: string, params: Record<string, unknown>): CommandOutcome | undefined {
    switch (name) {
      case 'setGateOpening': {
        const opening = numberParam(params, 'opening', Number.NaN);
        if (!(opening >= 0 && opening <= MAX_OPENING))
          return { ok: false, message: `opening must be 0-${MAX_OPENING} m` };
        this.target = opening;
        return { ok: true };
      }
      case 'openGate':
        this.target = MAX_OPENING;
        return { ok: true };
      case 'closeGate':
        this.target = 0;
        return { ok: true };
      case 'stopGate':
        this.target = this.opening;
        return { ok: true };
      default:
        return undefined;
    }
  }

  override setProperty(key: string, value: unknown): boolean {
    if (key !== 'gateOpening' || typeof value !== 'number') return false;
    return this.command('setGateOpening', { opening: value })?.ok ?? false;
  }

  values(): SimValues {
    return {
      gateOpening: round(this.opening, 3),
      upstreamLevel: round(this.upstreamLevel(), 3),
      downstreamLevel: round(this.downstream, 3),
      flow: round(this.flow, 3),
      // 0 stopped, 1 opening, 2 closing (the product's gateState).
      gateState: this.moving() > 0 ? 1 : this.moving() < 0 ? 2 : 0,
      motorCurrent: this.moving() !== 0 ? round(3.2 + this.random.normal(0, 0.1), 2) : 0,
    };
  }
}
