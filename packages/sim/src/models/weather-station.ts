import type { Random } from '../random';
import type { Environment } from './environment';
import { SteppedModel, approach, clamp, round, type SimValues } from './physics-model';
import { localDayStart } from './sky';

/** Global radiation above which the sun counts as shining, W/m². */
const SUNSHINE_THRESHOLD = 200;

/** Weather station: air, wind with gusts and drifting direction, rain, radiation, soil temperature. */
export class WeatherStationModel extends SteppedModel {
  private windMean = 2.5;
  private windSpeed = 2.5;
  private gust = 0;
  private direction: number;
  private pressure = 1008;
  private soilTemperature: number;
  private lastRead: number;
  /** Hours of bright sunshine since the last reading (WMO: direct beam over 120 W/m²). */
  private sunshine = 0;

  constructor(
    private readonly env: Environment,
    private readonly random: Random,
    start: number,
  ) {
    super(start);
    this.direction = random.between(0, 360);
    this.soilTemperature = env.airTemperature(start);
    this.lastRead = start;
  }

  protected step(now: number, dt: number): void {
    const raining = this.env.rainRate(now) > 0;
    // Wind: a mean-reverting walk, windier in the afternoon and under rain, with short gusts.
    this.windMean = approach(this.windMean, raining ? 4.5 : 2.5, dt, 6 * 3600);
    const target = this.windMean * (1 + 0.3 * Math.sin((now / 3_600_000 - 8) * (Math.PI / 12)));
    this.windSpeed = Math.max(0, approach(this.windSpeed, target, dt, 600));
    this.windSpeed += this.random.normal(0, 0.15) * Math.sqrt(dt / 60);
    this.windSpeed = clamp(this.windSpeed, 0, 25);
    this.gust = this.random.chance(dt / 900)
      ? this.random.between(1, 5)
      : this.gust * Math.exp(-dt / 30);
    this.direction = (this.direction + this.random.normal(0, 4) * Math.sqrt(dt / 60) + 360) % 360;
    // Pressure drifts and drops ahead of rain.
    const pressureTarget = raining ? 1000 : 1010;
    this.pressure = approach(this.pressure, pressureTarget, dt, 12 * 3600);
    this.pressure += this.random.normal(0, 0.05) * Math.sqrt(dt / 60);
    // A sunshine recorder counts the time the sun shines brightly (global radiation as its proxy).
    if (this.env.radiation(now) > SUNSHINE_THRESHOLD) this.sunshine += dt / 3600;
    // Soil at 10 cm follows the air slowly.
    this.soilTemperature = approach(
      this.soilTemperature,
      this.env.airTemperature(now),
      dt,
      5 * 3600,
    );
  }

  /**
   * A reading: `rainfall` and `sunshineHours` are the rain and the bright sunshine since the
   * previous reading, as a rain gauge and a sunshine recorder report them (a day's sum is its
   * total).
   */
  values(): SimValues {
    const now = this.time;
    const dayStart = localDayStart(now, this.env.lng);
    const rainfall = this.env.rainBetween(this.lastRead, now);
    const sunshine = this.sunshine;
    this.sunshine = 0;
    this.lastRead = now;
    return {
      airTemperature: round(this.env.airTemperature(now), 1),
      airHumidity: round(clamp(this.env.humidity(now), 5, 100), 1),
      airPressure: round(this.pressure, 1),
      windSpeed: round(this.windSpeed + this.gust, 1),
      windDirection: Math.round(this.direction) % 360,
      rainfall: round(rainfall, 1),
      rainfallToday: round(this.env.rainBetween(dayStart, now), 1),
      rainIntensity: round(this.env.rainRate(now), 1),
      solarRadiation: Math.round(this.env.radiation(now)),
      sunshineHours: round(sunshine, 2),
      soilTemperature: round(this.soilTemperature, 1),
      evapotranspiration: round(this.env.et0Rate(now), 2),
    };
  }
}
