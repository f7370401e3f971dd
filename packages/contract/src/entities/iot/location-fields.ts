import { f, label } from '../../entity-kit';

/**
 * Where something stands on the map (WGS 84, 6 decimals: about 10 cm): devices and cameras. Not
 * listed as columns; the map pages and pickers read them.
 */
export const locationFields = () => ({
  lat: f.decimal({
    label: label('Latitude', '纬度', '緯度'),
    min: -90,
    max: 90,
    precision: 6,
    list: false,
  }),
  lng: f.decimal({
    label: label('Longitude', '经度', '經度'),
    min: -180,
    max: 180,
    precision: 6,
    list: false,
  }),
});
