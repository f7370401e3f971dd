import { ringSquareMetres, type PlotRing as Ring } from '@shuili/contract';

export { ringMu } from '@shuili/contract';

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
