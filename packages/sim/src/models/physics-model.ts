/** What a virtual device reports: numbers, booleans (switches) or strings. */
export type SimValue = number | boolean | string;
export type SimValues = Record<string, SimValue>;

/** A command carried out (ok) or refused with a reason the operator reads. */
export interface CommandOutcome {
  ok: boolean;
  message?: string;
}

/** An event a device reports (a card swiped, a session's record), at the model's time. */
export interface SimEvent {
  ts: number;
  key: string;
  params: Record<string, unknown>;
}

/**
 * The physics of one device kind. Time only moves when the caller says so (`advance(now)`), so
 * tests drive a simulated day in milliseconds with a seeded random and get the same values.
 */
export interface PhysicsModel {
  /** Integrates the state up to `now` (ms since the epoch); earlier times are ignored. */
  advance(now: number): void;
  /** The current readings keyed by the simulator's property keys. */
  values(): SimValues;
  /** Carries out a command at the model's current time; undefined when the kind has no such command. */
  command(name: string, params: Record<string, unknown>): CommandOutcome | undefined;
  /** Applies a written (rw) property; false when the value is not part of the physics. */
  setProperty(key: string, value: unknown): boolean;
  /**
   * A photo the device has to take now (a trap's tray), once: what it shows. Undefined when
   * none is due or the kind has no camera of its own.
   */
  takePhoto?(): PhotoRequest | undefined;
  /** The events that happened since the last call, oldest first (published, or kept offline). */
  drainEvents?(): SimEvent[];
  /** The device's link went up or down (a controller runs differently offline). */
  setOnline?(online: boolean): void;
}

/** What a due photo shows: the insects on a trap's tray since the previous photo. */
export interface PhotoRequest {
  insects: number;
}

/** Integrates in bounded steps so a long gap (a device back from offline) stays stable. */
export abstract class SteppedModel implements PhysicsModel {
  protected time: number;

  constructor(
    start: number,
    private maxStepMs = 60_000,
  ) {
    this.time = start;
  }

  /**
   * Integrates in steps of up to `maxStepMs` from now on (never finer than the model's own): a
   * month of history computed in a second, at the price of minute-grained ramps and timers.
   */
  coarsen(maxStepMs: number): void {
    this.maxStepMs = Math.max(this.maxStepMs, maxStepMs);
  }

  advance(now: number): void {
    while (this.time < now) {
      const dt = Math.min(this.maxStepMs, now - this.time);
      this.step(this.time + dt, dt / 1000);
      this.time += dt;
    }
  }

  abstract values(): SimValues;

  command(_name: string, _params: Record<string, unknown>): CommandOutcome | undefined {
    return undefined;
  }

  setProperty(_key: string, _value: unknown): boolean {
    return false;
  }

  /** One step ending at `now` lasting `dtSeconds`. */
  protected abstract step(now: number, dtSeconds: number): void;
}

/** A numeric command parameter, or the fallback when it is absent or not a number. */
export function numberParam(
  params: Record<string, unknown>,
  key: string,
  fallback: number,
): number {
  const value = params[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

export function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

/** First-order approach of `value` to `target` with time constant `tauSeconds`. */
export function approach(value: number, target: number, dtSeconds: number, tauSeconds: number) {
  return target + (value - target) * Math.exp(-dtSeconds / tauSeconds);
}

export function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
