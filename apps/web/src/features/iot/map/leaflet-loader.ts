/** The attribution every map shows for OpenStreetMap-style tiles. */
export const OSM_ATTRIBUTION =
  '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>';

// Leaflet and its styles are downloaded when a map is first shown.
export const loadLeaflet = () =>
  Promise.all([import('leaflet'), import('leaflet/dist/leaflet.css')]).then(([module]) => module);
