import { z } from 'zod';
import { instantOf } from './iot-telemetry';

/** The weather area's derived calls. */
export const WEATHER_CALLS = {
  dailyEt0: '/api/monitor/weather/queryDailyEt0',
} as const;

/** The longest range of one ET0 query, in days. */
export const ET0_MAX_DAYS = 366;

const invalid = { error: 'validation.invalid' };
const id = z
  .union([z.string(), z.number().int().nonnegative()], invalid)
  .transform((value) => String(value))
  .pipe(z.string().regex(/^\d{1,18}$/, invalid));
/** A calendar day (YYYY-MM-DD, in the tenant's time zone) or an instant within one. */
const day = z
  .string()
  .max(40)
  .refine(
    (text) =>
      /^\d{4}-\d{2}-\d{2}$/.test(text)
        ? !Number.isNaN(Date.parse(`${text}T00:00:00Z`))
        : !Number.isNaN(instantOf(text).getTime()),
    invalid,
  );

/** GET queryDailyEt0: each day from start to end (inclusive) of a weather station. */
export const dailyEt0QuerySchema = z.object({ deviceId: id, start: day, end: day });
export type DailyEt0Query = z.infer<typeof dailyEt0QuerySchema>;

/** What a day lacks for ET0 (its ET0 is then null). */
export const ET0_MISSING = [
  'temperature',
  'humidity',
  'wind',
  'radiation',
  'coverage',
  'latitude',
] as const;

export const dailyEt0Schema = z.object({
  timeZone: z.string(),
  latitude: z.number().nullable(),
  altitude: z.number(),
  windHeight: z.number(),
  list: z.array(
    z.object({
      /** YYYY-MM-DD in the tenant's time zone. */
      date: z.string(),
      /** mm/day; null when a needed reading is missing (see `missing`). */
      et0: z.number().nullable(),
      /** mm, the day's total. */
      rainfall: z.number().nullable(),
      tMax: z.number().nullable(),
      tMin: z.number().nullable(),
      rhMax: z.number().nullable(),
      rhMin: z.number().nullable(),
      /** Mean wind at the anemometer's height, m/s. */
      windSpeed: z.number().nullable(),
      /** MJ/m²/day, measured (integrated irradiance) or from sunshine hours. */
      solarRadiation: z.number().nullable(),
      sunshineHours: z.number().nullable(),
      /** Hours of the day with readings. */
      hours: z.number(),
      missing: z.array(z.enum(ET0_MISSING)),
    }),
  ),
});
export type DailyEt0 = z.infer<typeof dailyEt0Schema>;
