import type { Map as LeafletMap } from 'leaflet';

/** The attribution every map shows for OpenStreetMap-style tiles. */
export const OSM_ATTRIBUTION =
  '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>';

// Leaflet and its styles are downloaded when a map is first shown.
export const loadLeaflet = () =>
  Promise.all([import('leaflet'), import('leaflet/dist/leaflet.css')]).then(([module]) => module);

type Leaflet = Awaited<ReturnType<typeof loadLeaflet>>;

/**
 * The installation's tiles (MAP_TILE_URL) under a map; none configured, the map draws without
 * them. `onError` hears of tiles that fail (offline field offices), for the map's warning.
 */
export function addTiles(
  L: Leaflet,
  map: LeafletMap,
  tiles: string | undefined,
  onError: () => void,
): void {
  if (!tiles) return;
  L.tileLayer(tiles, { maxZoom: 19, attribution: OSM_ATTRIBUTION })
    .on('tileerror', onError)
    .addTo(map);
}
