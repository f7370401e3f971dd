import { ringMu as closedRingMu, type PlotRing } from '@shuili/contract';

/** A ring of [longitude, latitude] positions in WGS 84, as GeoJSON writes them. */
export type Ring = PlotRing;

/**
 * The area of an open or closed ring in mu, to 2 decimals: the server's own figure (the
 * contract's ringMu), so the editor shows what will be saved.
 */
export function ringMu(points: Ring): number {
  return points.length < 3 ? 0 : closedRingMu(closed(points));
}

/** The ring with its first position repeated at the end (GeoJSON's closed ring). */
export function closed(points: Ring): Ring {
  const first = points[0];
  const last = points[points.length - 1];
  if (!first || !last) return points;
  return first[0] === last[0] && first[1] === last[1] ? points : [...points, first];
}

/** The vertices of a GeoJSON Polygon's outer ring given as text (without the closing one). */
export function verticesOf(text: unknown): Ring {
  if (typeof text !== 'string' || !text.trim()) return [];
  try {
    const value = JSON.parse(text) as { type?: unknown; coordinates?: unknown };
    const ring = Array.isArray(value.coordinates) ? (value.coordinates[0] as unknown) : undefined;
    if (value.type !== 'Polygon' || !Array.isArray(ring)) return [];
    const points = ring.filter(
      (position): position is [number, number] =>
        Array.isArray(position) &&
        typeof position[0] === 'number' &&
        typeof position[1] === 'number',
    );
    const open = points.map(([lng, lat]) => [lng, lat] as [number, number]);
    const first = open[0];
    const last = open[open.length - 1];
    if (open.length > 1 && first![0] === last![0] && first![1] === last![1]) open.pop();
    return open;
  } catch {
    return [];
  }
}

/** The GeoJSON Polygon text of vertices (at least 3), rounded to about 1 cm; else ''. */
export function polygonText(points: Ring): string {
  if (points.length < 3) return '';
  const round = (value: number) => Math.round(value * 1e7) / 1e7;
  const ring = closed(points.map(([lng, lat]) => [round(lng), round(lat)] as [number, number]));
  return JSON.stringify({ type: 'Polygon', coordinates: [ring] });
}
