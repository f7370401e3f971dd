/** OpenStreetMap's own tiles, the map's default (MAP_TILE_URL). */
export const DEFAULT_MAP_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';

/**
 * A tile URL template as Leaflet takes it: the scheme, an optional `{s}.` subdomain the map
 * picks (a, b, c), the host with its port, then a path holding {z}, {x} and {y} (or TMS {-y}).
 */
const TEMPLATE = /^(https?):\/\/(\{s\}\.)?([^/{}?#@\\]+)(\/.*)$/i;

/**
 * The Content-Security-Policy image source that allows exactly the map's tile server: its origin,
 * or `scheme://*.host` when the template picks a subdomain ({s}); none when the tiles come from
 * our own origin (a path such as /tiles/{z}/{x}/{y}.png, which 'self' already allows). Throws,
 * naming MAP_TILE_URL, for anything else, so a wrong setting stops the server at start rather
 * than showing a map without tiles.
 */
export function mapTileSource(template: string): string | undefined {
  const placeholders = /\{z\}/.test(template) && /\{x\}/.test(template) && /\{-?y\}/.test(template);
  if (placeholders && template.startsWith('/') && !template.startsWith('//')) return undefined;
  const parts = TEMPLATE.exec(template);
  let origin: string | undefined;
  try {
    if (parts) origin = new URL(`${parts[1]}://${parts[3]}/`).origin;
  } catch {
    origin = undefined;
  }
  if (!parts || !origin || origin === 'null' || !placeholders || /[{}]/.test(parts[3]!)) {
    throw new Error(
      `MAP_TILE_URL must be an http(s) tile URL with {z}, {x} and {y} (and {s} only as the first part of the host), or a path on this server; got "${template}"`,
    );
  }
  return parts[2] ? origin.replace('://', '://*.') : origin;
}
