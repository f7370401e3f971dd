/**
 * A plot's area from its outline, shared by the server (which stores it) and the console's
 * outline editor (which shows it as the corners move), so both say the same figure.
 */

/** A ring of [longitude, latitude] positions in WGS 84, as GeoJSON writes them. */
export type PlotRing = Array<[number, number]>;

/** One mu (亩) in square metres. */
export const SQUARE_METRES_PER_MU = 10_000 / 15;
const EARTH_RADIUS_M = 6_371_008.8;

/** The area a closed ring encloses on the sphere, in m² (Chamberlain & Duquette 2007). */
export function ringSquareMetres(ring: PlotRing): number {
  const rad = Math.PI / 180;
  let sum = 0;
  for (let i = 0; i < ring.length - 1; i++) {
    const [lon1, lat1] = ring[i]!;
    const [lon2, lat2] = ring[i + 1]!;
    sum += (lon2 - lon1) * rad * (2 + Math.sin(lat1 * rad) + Math.sin(lat2 * rad));
  }
  return Math.abs((sum * EARTH_RADIUS_M * EARTH_RADIUS_M) / 2);
}

/** The area of a closed ring in mu, to 2 decimals. */
export function ringMu(ring: PlotRing): number {
  return Math.round((ringSquareMetres(ring) / SQUARE_METRES_PER_MU) * 100) / 100;
}
