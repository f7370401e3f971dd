/** Sun and seasons for a site: pure functions of time, no state. */

const DAY_MS = 86_400_000;

export function dayOfYear(now: number): number {
  const date = new Date(now);
  const start = Date.UTC(date.getUTCFullYear(), 0, 1);
  return Math.floor((now - start) / DAY_MS) + 1;
}

/** Local solar hour 0..24 at longitude `lng` (no equation of time: a few minutes do not matter). */
export function solarHour(now: number, lng: number): number {
  const utcHours = (now % DAY_MS) / 3_600_000;
  return (((utcHours + lng / 15) % 24) + 24) % 24;
}

/** Sine of the sun's elevation: negative at night. */
export function sunElevationSine(now: number, lat: number, lng: number): number {
  const declination =
    ((23.44 * Math.PI) / 180) * Math.sin((2 * Math.PI * (284 + dayOfYear(now))) / 365);
  const hourAngle = ((solarHour(now, lng) - 12) * 15 * Math.PI) / 180;
  const phi = (lat * Math.PI) / 180;
  return (
    Math.sin(phi) * Math.sin(declination) +
    Math.cos(phi) * Math.cos(declination) * Math.cos(hourAngle)
  );
}

/** Global horizontal radiation under a clear sky, W/m². */
export function clearSkyRadiation(now: number, lat: number, lng: number): number {
  const sine = sunElevationSine(now, lat, lng);
  return sine <= 0 ? 0 : 1361 * 0.75 * sine;
}

/** A deterministic value in [-1, 1] for (seed, n): day-to-day variation without stored state. */
export function hashNoise(seed: number, n: number): number {
  let h = (seed ^ Math.imul(n, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  h ^= h >>> 16;
  return ((h >>> 0) / 4294967295) * 2 - 1;
}

/** Whole days since the epoch, used as the index of a day's weather. */
export function dayIndex(now: number, lng: number): number {
  return Math.floor((now + (lng / 15) * 3_600_000) / DAY_MS);
}

/** Local (solar) midnight before `now`, ms. */
export function localDayStart(now: number, lng: number): number {
  const offset = (lng / 15) * 3_600_000;
  return now - ((((now + offset) % DAY_MS) + DAY_MS) % DAY_MS);
}
