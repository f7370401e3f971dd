import {
  dailyEt0,
  dayOfYear,
  ET0_MAX_DAYS,
  instantOf,
  wattsToDailyMegajoules,
  type DailyEt0,
  type DailyEt0Query,
} from '@shuili/contract';
import type { Database } from '../../../db/database';
import { AppError } from '../../../http/app-error';
import type { AuthContext } from '../../../http/request-context';
import { tenantTimeZone } from '../../iot/telemetry/telemetry-settings';
import { areaSetting } from '../settings/area-setting.service';
import { dailyWeatherRepo, type DailyKeyRow } from './daily-weather.repo';

const WEATHER = 'weatherStation';
const STATION_KIND = 'weather_station';
/** The thing-model keys a weather station's day is read from (WEATHER-8). */
const KEYS = {
  temperature: 'airTemperature',
  humidity: 'airHumidity',
  wind: 'windSpeed',
  radiation: 'solarRadiation',
  rainfall: 'rainfall',
  /** Sunshine hours of each interval (summed), where a product has a sunshine recorder. */
  sunshine: 'sunshineHours',
} as const;
/** Hours of a day that must have readings for its ET0 (a day is 24; a gap or two is forgiven). */
export const ET0_MIN_HOURS = 20;
const DAY_MS = 86_400_000;

const fieldError = (field: string, key: string, params?: Record<string, string | number>) =>
  new AppError(400, key, { params, fields: [{ field, key, params }] });

/** A query day as a local date: a date as given, an instant as its date in the zone. */
function localDate(text: string, timeZone: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return text;
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(instantOf(text));
}

const round = (value: number | null | undefined, places = 2) =>
  value === null || value === undefined || !Number.isFinite(value)
    ? null
    : Math.round(value * 10 ** places) / 10 ** places;

/**
 * Daily reference evapotranspiration of a weather station (FAO-56, contract et0.ts) from its
 * stored readings, each day of the tenant's time zone: Tmax / Tmin and RHmax / RHmin from the
 * day's extremes, mean wind at the anemometer's height (setting windHeight), radiation from the
 * irradiance (W/m², mean of the hourly means over the day) or else sunshine hours; latitude from
 * the device's location, altitude from its settings. Beside it the day's rainfall. A day lacking
 * a quantity, or with fewer than ET0_MIN_HOURS hours of readings, has no ET0 and says why.
 */
export class DailyEt0Service {
  constructor(private readonly db: Database) {}

  query(auth: AuthContext, query: DailyEt0Query): Promise<DailyEt0> {
    return this.db.tenant(auth, async (sql) => {
      const station = await dailyWeatherRepo.station(sql, query.deviceId);
      if (!station)
        throw new AppError(404, 'iot.deviceNotFound', {
          fields: [{ field: 'deviceId', key: 'iot.deviceNotFound' }],
        });
      if (station.device_kind !== STATION_KIND)
        throw fieldError('deviceId', 'monitor.weatherNotStation');
      const timeZone = await tenantTimeZone(sql);
      const first = localDate(query.start, timeZone);
      const last = localDate(query.end, timeZone);
      const span = (Date.parse(`${last}T00:00:00Z`) - Date.parse(`${first}T00:00:00Z`)) / DAY_MS;
      if (span < 0) throw fieldError('end', 'validation.endBeforeStart');
      if (span >= ET0_MAX_DAYS)
        throw fieldError('end', 'iot.telemetry.rangeTooLong', { days: ET0_MAX_DAYS });
      const altitude = Number(await areaSetting(sql, station.id, WEATHER, 'altitude'));
      const windHeight = Number(await areaSetting(sql, station.id, WEATHER, 'windHeight'));
      const rows = await dailyWeatherRepo.days(
        sql,
        station.id,
        Object.values(KEYS),
        first,
        last,
        timeZone,
      );
      const byDay = new Map<string, Map<string, DailyKeyRow>>();
      for (const row of rows) {
        if (!byDay.has(row.day)) byDay.set(row.day, new Map());
        byDay.get(row.day)!.set(row.key, row);
      }
      const latitude = station.lat === null ? null : Number(station.lat);
      const list: DailyEt0['list'] = [];
      for (let n = 0; n <= span; n++) {
        const date = new Date(Date.parse(`${first}T00:00:00Z`) + n * DAY_MS)
          .toISOString()
          .slice(0, 10);
        list.push(this.day(date, byDay.get(date) ?? new Map(), { latitude, altitude, windHeight }));
      }
      return { timeZone, latitude, altitude, windHeight, list };
    });
  }

  private day(
    date: string,
    keys: Map<string, DailyKeyRow>,
    site: { latitude: number | null; altitude: number; windHeight: number },
  ): DailyEt0['list'][number] {
    const t = keys.get(KEYS.temperature);
    const rh = keys.get(KEYS.humidity);
    const wind = keys.get(KEYS.wind);
    const radiation = keys.get(KEYS.radiation);
    const sunshine = keys.get(KEYS.sunshine);
    const rain = keys.get(KEYS.rainfall);
    const missing: DailyEt0['list'][number]['missing'] = [];
    if (t?.max == null || t.min == null) missing.push('temperature');
    if (rh?.max == null || rh.min == null) missing.push('humidity');
    if (wind?.mean == null) missing.push('wind');
    const measured =
      radiation?.hourlyMean != null ? wattsToDailyMegajoules(radiation.hourlyMean) : null;
    const sunshineHours = sunshine?.total ?? null;
    if (measured === null && sunshineHours === null) missing.push('radiation');
    const hours = Math.max(0, ...[...keys.values()].map((row) => row.hours));
    const needed = [t, rh, wind, measured !== null ? radiation : sunshine];
    if (needed.every(Boolean) && needed.some((row) => row!.hours < ET0_MIN_HOURS))
      missing.push('coverage');
    if (site.latitude === null) missing.push('latitude');
    let et0: number | null = null;
    let rs = measured;
    if (missing.length === 0) {
      const [year, month, day] = date.split('-').map(Number) as [number, number, number];
      const result = dailyEt0({
        tMax: t!.max!,
        tMin: t!.min!,
        rhMax: Math.min(100, rh!.max!),
        rhMin: Math.min(100, rh!.min!),
        windSpeed: wind!.mean!,
        windHeight: site.windHeight,
        ...(measured !== null ? { solarRadiation: measured } : { sunshineHours: sunshineHours! }),
        altitude: site.altitude,
        latitude: site.latitude!,
        dayOfYear: dayOfYear(year, month, day),
      });
      et0 = result.et0;
      rs = result.rs;
    }
    return {
      date,
      et0: round(et0),
      rainfall: round(rain?.total),
      tMax: round(t?.max),
      tMin: round(t?.min),
      rhMax: round(rh?.max),
      rhMin: round(rh?.min),
      windSpeed: round(wind?.mean),
      solarRadiation: round(rs),
      sunshineHours: round(sunshineHours),
      hours,
      missing,
    };
  }
}
