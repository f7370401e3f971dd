import type { Random } from '../random';
import { clearSkyRadiation, dayIndex, dayOfYear, hashNoise, solarHour } from './sky';

/** A rain event: constant intensity between two times (ms). */
export interface RainEvent {
  start: number;
  end: number;
  mmPerHour: number;
}

/**
 * The site's weather as functions of time, shared by every model of a site so that the rain a
 * weather station reports is the rain that wets the soil and raises the canal.
 */
export interface Environment {
  readonly lat: number;
  readonly lng: number;
  /** Rain intensity at `now`, mm/h. */
  rainRate(now: number): number;
  /** Rain fallen between two times, mm (exact: events are piecewise constant). */
  rainBetween(from: number, to: number): number;
  airTemperature(now: number): number;
  /** Relative humidity, %. */
  humidity(now: number): number;
  /** Global radiation, W/m² (clouds and rain dim it). */
  radiation(now: number): number;
  /** Reference evapotranspiration rate, mm/h (a radiation-temperature estimate of FAO-56 ET0). */
  et0Rate(now: number): number;
}

export interface EnvironmentOptions {
  random: Random;
  /** Start of the simulated period: random rain events are drawn from here on. */
  start: number;
  lat?: number;
  lng?: number;
  /** A fixed rain script instead of random events (tests). */
  rain?: RainEvent[];
  /** Mean dry spell between random rain events, hours (default 60: a shower every few days). */
  meanDryHours?: number;
}

const HOUR_MS = 3_600_000;

/** Around Jinan (36.6N 117.0E), where the demo irrigation district lies. */
export function createEnvironment(options: EnvironmentOptions): Environment {
  const lat = options.lat ?? 36.6;
  const lng = options.lng ?? 117.0;
  const random = options.random;
  const seed = Math.floor(random.next() * 2 ** 31);
  const meanDry = options.meanDryHours ?? 60;
  const events: RainEvent[] = options.rain ? [...options.rain] : [];
  // Random events are generated lazily forward in time, so any period can be queried in order.
  let drawnUntil = options.rain ? Number.POSITIVE_INFINITY : options.start;

  const drawUntil = (to: number) => {
    while (drawnUntil < to) {
      const gap = -Math.log(Math.max(random.next(), 1e-9)) * meanDry * HOUR_MS;
      const duration = random.between(0.5, 6) * HOUR_MS;
      const mmPerHour = Math.min(40, Math.exp(random.normal(0.8, 0.9)));
      const start = drawnUntil + gap;
      events.push({ start, end: start + duration, mmPerHour });
      drawnUntil = start + duration;
    }
  };

  const rainRate = (now: number) => {
    drawUntil(now);
    return events.find((event) => event.start <= now && now < event.end)?.mmPerHour ?? 0;
  };

  const rainBetween = (from: number, to: number) => {
    drawUntil(to);
    let total = 0;
    for (const event of events) {
      const overlap = Math.min(to, event.end) - Math.max(from, event.start);
      if (overlap > 0) total += (event.mmPerHour * overlap) / HOUR_MS;
    }
    return total;
  };

  const airTemperature = (now: number) => {
    const seasonal = 13 + 14 * Math.sin((2 * Math.PI * (dayOfYear(now) - 105)) / 365);
    const day = dayIndex(now, lng);
    const dayOffset = 3 * hashNoise(seed, day);
    const amplitude = rainRate(now) > 0 ? 2 : 5 + 1.5 * hashNoise(seed + 1, day);
    const diurnal = amplitude * Math.cos((2 * Math.PI * (solarHour(now, lng) - 15)) / 24);
    return seasonal + dayOffset + diurnal - (rainRate(now) > 0 ? 2 : 0);
  };

  const humidity = (now: number) => {
    if (rainRate(now) > 0) return 93 + 4 * hashNoise(seed + 2, Math.floor(now / HOUR_MS));
    const diurnal = Math.cos((2 * Math.PI * (solarHour(now, lng) - 15)) / 24);
    return 62 + 8 * hashNoise(seed + 3, dayIndex(now, lng)) - 20 * diurnal;
  };

  const radiation = (now: number) => {
    const cloudiness = 0.75 + 0.25 * hashNoise(seed + 4, dayIndex(now, lng));
    return clearSkyRadiation(now, lat, lng) * (rainRate(now) > 0 ? 0.2 : cloudiness);
  };

  const et0Rate = (now: number) => {
    // Radiation as evaporated-water equivalent (MJ/m²/h over 2.45 MJ/kg) times a temperature term.
    const rs = (radiation(now) * 0.0036) / 2.45;
    return Math.max(0, 0.0135 * (airTemperature(now) + 17.8) * rs * 1.1 + 0.005);
  };

  return { lat, lng, rainRate, rainBetween, airTemperature, humidity, radiation, et0Rate };
}
