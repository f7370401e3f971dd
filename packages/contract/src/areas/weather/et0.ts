/**
 * Daily reference evapotranspiration ET0 by FAO-56 Penman-Monteith (Allen et al. 1998, chapter
 * 3 and 4, equations numbered as there): the grass reference of irrigation scheduling. Pure, so
 * the server (a station's days), the console and the tests share it.
 */

/** One day of a station, as FAO-56 needs it. */
export interface Et0Input {
  /** Daily maximum and minimum air temperature, °C. */
  tMax: number;
  tMin: number;
  /** Daily maximum and minimum relative humidity, % (eq. 17); ignored when `ea` is given. */
  rhMax?: number;
  rhMin?: number;
  /** Actual vapour pressure measured or derived elsewhere, kPa. */
  ea?: number;
  /** Mean wind speed, m/s, measured at `windHeight` m above ground. */
  windSpeed: number;
  /** Anemometer height, m (2 when absent). */
  windHeight?: number;
  /** Measured solar radiation, MJ/m²/day (preferred, FAO-56 §3: measured over estimated). */
  solarRadiation?: number;
  /** Actual sunshine duration n, hours (Angström, eq. 35) when radiation is not measured. */
  sunshineHours?: number;
  /** Station altitude above sea level, m. */
  altitude: number;
  /** Latitude, decimal degrees, north positive. */
  latitude: number;
  /** Day of the year, 1-366. */
  dayOfYear: number;
  /** Soil heat flux G, MJ/m²/day: about 0 for a day (eq. 42), given for monthly steps. */
  soilHeatFlux?: number;
}

/** ET0 and each intermediate of FAO-56, in its units (kPa, kPa/°C, MJ/m²/day, h, m/s). */
export interface Et0Result {
  /** mm/day. */
  et0: number;
  pressure: number;
  gamma: number;
  tMean: number;
  es: number;
  ea: number;
  delta: number;
  u2: number;
  ra: number;
  daylightHours: number;
  rs: number;
  rso: number;
  rns: number;
  rnl: number;
  rn: number;
}

/** Solar constant Gsc, MJ/m²/min. */
const GSC = 0.082;
/** Stefan-Boltzmann constant, MJ/K⁴/m²/day. */
const SIGMA = 4.903e-9;
/** Albedo of the grass reference. */
const ALBEDO = 0.23;
/** Angström coefficients where no calibration exists (eq. 35). */
const AS = 0.25;
const BS = 0.5;

/** Saturation vapour pressure at temperature t °C, kPa (eq. 11). */
export function saturationVapourPressure(t: number): number {
  return 0.6108 * Math.exp((17.27 * t) / (t + 237.3));
}

/** Wind at height z converted to 2 m over grass (eq. 47). */
export function windAt2m(speed: number, height: number): number {
  return height === 2 ? speed : (speed * 4.87) / Math.log(67.8 * height - 5.42);
}

/** Extraterrestrial radiation Ra (eq. 21) and daylight hours N (eq. 34) of a day. */
export function extraterrestrial(
  latitude: number,
  dayOfYear: number,
): { ra: number; daylightHours: number } {
  const phi = (latitude * Math.PI) / 180;
  const dr = 1 + 0.033 * Math.cos(((2 * Math.PI) / 365) * dayOfYear);
  const decl = 0.409 * Math.sin(((2 * Math.PI) / 365) * dayOfYear - 1.39);
  // Clamped: beyond the polar circles the sun does not set (or rise) that day.
  const ws = Math.acos(Math.min(1, Math.max(-1, -Math.tan(phi) * Math.tan(decl))));
  const ra =
    ((24 * 60) / Math.PI) *
    GSC *
    dr *
    (ws * Math.sin(phi) * Math.sin(decl) + Math.cos(phi) * Math.cos(decl) * Math.sin(ws));
  return { ra: Math.max(0, ra), daylightHours: (24 / Math.PI) * ws };
}

/**
 * ET0 of one day (eq. 6). Needs either `solarRadiation` or `sunshineHours`, and either `ea` or
 * both `rhMax` and `rhMin`; throws otherwise (the caller decides what a day without them is).
 */
export function dailyEt0(input: Et0Input): Et0Result {
  const { tMax, tMin, altitude } = input;
  const pressure = 101.3 * ((293 - 0.0065 * altitude) / 293) ** 5.26; // eq. 7
  const gamma = 0.665e-3 * pressure; // eq. 8
  const tMean = (tMax + tMin) / 2; // eq. 9
  const eMax = saturationVapourPressure(tMax);
  const eMin = saturationVapourPressure(tMin);
  const es = (eMax + eMin) / 2; // eq. 12
  let ea = input.ea;
  if (ea === undefined) {
    if (input.rhMax === undefined || input.rhMin === undefined)
      throw new Error('ET0 needs ea or both RHmax and RHmin');
    ea = (eMin * (input.rhMax / 100) + eMax * (input.rhMin / 100)) / 2; // eq. 17
  }
  const delta = (4098 * saturationVapourPressure(tMean)) / (tMean + 237.3) ** 2; // eq. 13
  const u2 = windAt2m(input.windSpeed, input.windHeight ?? 2);
  const { ra, daylightHours } = extraterrestrial(input.latitude, input.dayOfYear);
  let rs = input.solarRadiation;
  if (rs === undefined) {
    if (input.sunshineHours === undefined)
      throw new Error('ET0 needs the solar radiation or the sunshine hours');
    const n = Math.min(Math.max(input.sunshineHours, 0), daylightHours);
    rs = (AS + (BS * n) / (daylightHours || 1)) * ra; // eq. 35
  }
  const rso = (0.75 + 2e-5 * altitude) * ra; // eq. 37
  const rns = (1 - ALBEDO) * rs; // eq. 38
  // Rs/Rso is at most 1 (eq. 39); a day without Rso (polar night) counts as overcast.
  const relative = rso > 0 ? Math.min(rs / rso, 1) : 0.3;
  const rnl =
    SIGMA *
    (((tMax + 273.16) ** 4 + (tMin + 273.16) ** 4) / 2) *
    (0.34 - 0.14 * Math.sqrt(Math.max(ea, 0))) *
    (1.35 * relative - 0.35); // eq. 39
  const rn = rns - rnl; // eq. 40
  const g = input.soilHeatFlux ?? 0;
  const et0 =
    (0.408 * delta * (rn - g) + gamma * (900 / (tMean + 273)) * u2 * (es - ea)) /
    (delta + gamma * (1 + 0.34 * u2)); // eq. 6
  return {
    et0: Math.max(0, et0),
    pressure,
    gamma,
    tMean,
    es,
    ea,
    delta,
    u2,
    ra,
    daylightHours,
    rs,
    rso,
    rns,
    rnl,
    rn,
  };
}

/** Day of the year (1-366) of a calendar date. */
export function dayOfYear(year: number, month: number, day: number): number {
  return Math.round((Date.UTC(year, month - 1, day) - Date.UTC(year, 0, 0)) / 86_400_000);
}

/** Mean irradiance over a day, W/m², as the day's energy, MJ/m²/day. */
export function wattsToDailyMegajoules(meanWatts: number): number {
  return (meanWatts * 86_400) / 1e6;
}
