import type { Random } from '../random';
import { SteppedModel, round, type CommandOutcome, type SimValues } from './physics-model';

const FLOW = 40; // m³/h of a typical well pump
const POWER = 11; // kW

/**
 * Card-swipe well controller: farmers swipe a card, the pump runs for a while, water and energy
 * are metered per session and in total.
 */
export class CardControllerModel extends SteppedModel {
  private running = false;
  private locked = false;
  private card = '';
  private sessionEnd = 0;
  private sessionVolume = 0;
  private sessionEnergy = 0;
  private totalVolume: number;
  private totalEnergy: number;

  constructor(
    private readonly random: Random,
    start: number,
  ) {
    super(start);
    this.totalVolume = round(random.between(1000, 50000), 1);
    this.totalEnergy = round(this.totalVolume * 0.28, 1);
  }

  protected step(now: number, dt: number): void {
    if (this.running && now >= this.sessionEnd) this.running = false;
    // About four swipes a day while the pump is idle, in daytime hours mostly.
    if (!this.running && !this.locked && this.random.chance((4 * dt) / 86_400)) {
      this.running = true;
      this.card = `C${Math.floor(this.random.between(10_000_000, 99_999_999))}`;
      this.sessionEnd = now + this.random.between(0.5, 3) * 3_600_000;
      this.sessionVolume = 0;
      this.sessionEnergy = 0;
    }
    if (!this.running) return;
    const volume = (FLOW * dt) / 3600;
    const energy = (POWER * dt) / 3600;
    this.sessionVolume += volume;
    this.sessionEnergy += energy;
    this.totalVolume += volume;
    this.totalEnergy += energy;
  }

  override command(name: string, params: Record<string, unknown>): CommandOutcome | undefined {
    if (name === 'stopPump') {
      this.running = false;
      return { ok: true };
    }
    if (name === 'lockController') {
      // A locked controller refuses cards (tamper, unpaid dues) and stops a running session.
      this.locked = params['locked'] === true;
      if (this.locked) this.running = false;
      return { ok: true };
    }
    return undefined;
  }

  values(): SimValues {
    return {
      pumpRunning: this.running,
      voltage: round(380 + this.random.normal(0, 1.5), 1),
      current: this.running ? round(19.5 + this.random.normal(0, 0.3), 2) : 0,
      cardNo: this.card,
      flow: this.running ? FLOW : 0,
      sessionVolume: round(this.sessionVolume, 2),
      sessionEnergy: round(this.sessionEnergy, 2),
      cumulativeVolume: round(this.totalVolume, 1),
      energy: round(this.totalEnergy, 1),
    };
  }
}
