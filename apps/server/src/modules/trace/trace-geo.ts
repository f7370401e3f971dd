/** One mu (亩) in square metres. */
const SQUARE_METRES_PER_MU = 10_000 / 15;
const EARTH_RADIUS_M = 6_371_008.8;

type Ring = Array<[number, number]>;

/**
 * The outer ring of a GeoJSON Polygon in WGS 84 given as text, or undefined when it is not one:
 * an object of type Polygon whose first ring has at least 4 positions of [longitude, latitude]
 * within range, closed (last = first) and enclosing some area. Holes, when given, follow the
 * same rules.
 */
export function polygonRing(text: string): Ring | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const polygon = value as { type?: unknown; coordinates?: unknown };
  if (polygon.type !== 'Polygon' || !Array.isArray(polygon.coordinates)) return undefined;
  if (polygon.coordinates.length < 1 || polygon.coordinates.length > 100) return undefined;
  const rings: Ring[] = [];
  for (const ring of polygon.coordinates as unknown[]) {
    if (!Array.isArray(ring) || ring.length < 4 || ring.length > 10_000) return undefined;
    const points: Ring = [];
    for (const position of ring as unknown[]) {
      if (!Array.isArray(position) || position.length < 2 || position.length > 3) return undefined;
      const [lon, lat] = position as unknown[];
      if (typeof lon !== 'number' || typeof lat !== 'number') return undefined;
      if (!Number.isFinite(lon) || !Number.isFinite(lat)) return undefined;
      if (lon < -180 || lon > 180 || lat < -90 || lat > 90) return undefined;
      points.push([lon, lat]);
    }
    const first = points[0]!;
    const last = points[points.length - 1]!;
    if (first[0] !== last[0] || first[1] !== last[1]) return undefined;
    if (ringSquareMetres(points) <= 0) return undefined;
    rings.push(points);
  }
  return rings[0];
}

/** The area a closed ring encloses on the sphere, in m² (Chamberlain & Duquette 2007). */
export function ringSquareMetres(ring: Ring): number {
  const rad = Math.PI / 180;
  let sum = 0;
  for (let i = 0; i < ring.length - 1; i++) {
    const [lon1, lat1] = ring[i]!;
    const [lon2, lat2] = ring[i + 1]!;
    sum += (lon2 - lon1) * rad * (2 + Math.sin(lat1 * rad) + Math.sin(lat2 * rad));
  }
  return Math.abs((sum * EARTH_RADIUS_M * EARTH_RADIUS_M) / 2);
}

/** The area of a plot's ring in mu, to 2 decimals. */
export function ringMu(ring: Ring): number {
  return Math.round((ringSquareMetres(ring) / SQUARE_METRES_PER_MU) * 100) / 100;
}
