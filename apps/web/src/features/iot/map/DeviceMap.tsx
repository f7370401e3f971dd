import { Alert, Empty, Space, Typography } from 'antd';
import type { Map as LeafletMap } from 'leaflet';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConsoleSettings } from '../../../lib/console-settings';
import { textElement } from '../../../lib/text-element';
import { addTiles, loadLeaflet } from './leaflet-loader';

export interface DeviceMapProps {
  lat: number | null | undefined;
  lng: number | null | undefined;
  title: string;
}

const ZOOM = 14;

/**
 * Where the device stands, on the installation's tile server (MAP_TILE_URL, OpenStreetMap by
 * default). Field offices are often offline or behind a firewall: without tiles the marker (a
 * vector circle, no image) and the coordinates still show. The name is the user's data: Leaflet
 * renders a string tooltip as HTML, so it gets a text node (textElement).
 */
export function DeviceMap({ lat, lng, title }: DeviceMapProps) {
  const { t } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const [tilesFailed, setTilesFailed] = useState(false);
  const located = typeof lat === 'number' && typeof lng === 'number';
  const settings = useConsoleSettings();
  const tiles = settings.data?.mapTileUrl;
  const settled = !settings.isPending;

  useEffect(() => {
    if (!located || !settled) return undefined;
    let map: LeafletMap | undefined;
    let disposed = false;
    void loadLeaflet().then((L) => {
      if (disposed || !host.current) return;
      map = L.map(host.current, { center: [lat, lng], zoom: ZOOM });
      addTiles(L, map, tiles, () => setTilesFailed(true));
      L.circleMarker([lat, lng], { radius: 9, color: '#1677ff', fillOpacity: 0.8 })
        .bindTooltip(textElement(title), { permanent: true, direction: 'top', offset: [0, -8] })
        .addTo(map);
    });
    return () => {
      disposed = true;
      map?.remove();
    };
  }, [located, settled, tiles, lat, lng, title]);

  if (!located) return <Empty description={t('iot.map.noLocation')} />;
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="device-map">
      {(tilesFailed || settings.isError) && (
        <Alert type="warning" showIcon title={t('iot.map.tilesFailed')} />
      )}
      <div
        ref={host}
        style={{ width: '100%', height: 360, background: '#eef2f5' }}
        data-testid="device-map-canvas"
      />
      <Typography.Text data-testid="device-coordinates">
        {/* Through `replace`: a `lng` option would be taken for the language to translate into. */}
        {t('iot.map.coordinates', { replace: { lat: lat.toFixed(6), lng: lng.toFixed(6) } })}
      </Typography.Text>
    </Space>
  );
}
