/** A place by latitude and longitude (degrees). */
export interface Place {
  lat: number | null;
  lng: number | null;
}

const EARTH_RADIUS_KM = 6371;
const rad = (degrees: number) => (degrees * Math.PI) / 180;

/** Great-circle distance in km (haversine). */
export function distanceKm(a: { lat: number; lng: number }, b: { lat: number; lng: number }) {
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The candidate nearest to a place (both need a position), with its distance. */
export function nearest<T extends Place>(
  from: Place,
  candidates: readonly T[],
): { item: T; km: number } | undefined {
  if (from.lat === null || from.lng === null) return undefined;
  const origin = { lat: from.lat, lng: from.lng };
  let best: { item: T; km: number } | undefined;
  for (const item of candidates) {
    if (item.lat === null || item.lng === null) continue;
    const km = distanceKm(origin, { lat: item.lat, lng: item.lng });
    if (!best || km < best.km) best = { item, km };
  }
  return best;
}
