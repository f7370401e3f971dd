import type { Random } from '../random';
import type { Environment } from './environment';
import {
  SteppedModel,
  round,
  type CommandOutcome,
  type PhotoRequest,
  type SimValues,
} from './physics-model';
import { localDayStart, sunElevationSine } from './sky';

/** A trap photographs its tray this often while its lamp is lit, and when told to. */
const PHOTO_EVERY_MS = 2 * 3_600_000;

/**
 * Insect-trap lamp: the lamp lights at dusk and goes out at dawn; insects fly to it at night,
 * more on warm, dry nights. The count restarts each day. The tray is photographed every two
 * hours while the lamp is lit (and on the takePhoto command), then emptied.
 */
export class InsectTrapModel extends SteppedModel {
  private today = 0;
  private total: number;
  private day: number;
  /** A manual lamp setting from the console, kept until the next dusk or dawn. */
  private override: boolean | undefined;
  private wasNight: boolean;
  /** Insects on the tray since the last photo. */
  private onTray = 0;
  private lastPhotoAt: number;
  private photoWanted = false;

  constructor(
    private readonly env: Environment,
    private readonly random: Random,
    start: number,
  ) {
    super(start);
    this.total = Math.floor(random.between(0, 5000));
    this.day = localDayStart(start, env.lng);
    this.wasNight = this.isNight(start);
    // Each trap at its own phase: a fresh simulation's traps photograph within two hours, apart.
    this.lastPhotoAt = start - random.between(0, PHOTO_EVERY_MS);
  }

  private isNight(now: number): boolean {
    return sunElevationSine(now, this.env.lat, this.env.lng) < -0.05;
  }

  lampOn(): boolean {
    return this.override ?? this.isNight(this.time);
  }

  protected step(now: number, dt: number): void {
    const day = localDayStart(now, this.env.lng);
    if (day !== this.day) {
      this.day = day;
      this.today = 0;
    }
    const night = this.isNight(now);
    if (night !== this.wasNight) this.override = undefined;
    this.wasNight = night;
    if (!(this.override ?? night)) return;
    const temperature = this.env.airTemperature(now);
    const activity = Math.max(0, (temperature - 8) / 12) * (this.env.rainRate(now) > 0 ? 0.2 : 1);
    const expected = (15 * activity * dt) / 3600;
    // Poisson arrivals by inversion: fine for the few insects of one step.
    let caught = 0;
    let p = Math.exp(-expected);
    let cumulative = p;
    const u = this.random.next();
    while (u > cumulative && caught < 200) {
      caught++;
      p *= expected / caught;
      cumulative += p;
    }
    this.today += caught;
    this.total += caught;
    this.onTray += caught;
    if (now - this.lastPhotoAt >= PHOTO_EVERY_MS) this.photoWanted = true;
  }

  takePhoto(): PhotoRequest | undefined {
    if (!this.photoWanted) return undefined;
    const insects = this.onTray;
    this.photoWanted = false;
    this.onTray = 0;
    this.lastPhotoAt = this.time;
    return { insects };
  }

  override command(name: string, params: Record<string, unknown>): CommandOutcome | undefined {
    if (name === 'setLamp') {
      this.override = params['on'] === true || params['on'] === 1;
      return { ok: true };
    }
    if (name === 'takePhoto') {
      this.photoWanted = true;
      return { ok: true };
    }
    return undefined;
  }

  override setProperty(key: string, value: unknown): boolean {
    if (key !== 'lampOn' || typeof value !== 'boolean') return false;
    this.override = value;
    return true;
  }

  values(): SimValues {
    return {
      lampOn: this.lampOn(),
      insectCount: this.today,
      totalCount: this.total,
      airTemperature: round(this.env.airTemperature(this.time), 1),
      airHumidity: round(Math.min(100, this.env.humidity(this.time)), 1),
    };
  }
}
