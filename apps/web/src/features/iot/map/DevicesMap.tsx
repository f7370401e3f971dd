import { Alert, Empty, Flex } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { textElement } from '../../../lib/text-element';
import { loadLeaflet } from './leaflet-loader';
import { useLayerMap } from './use-layer-map';

/** One device on the map: where it stands, its name and the colour of its state. */
export interface DeviceMarker {
  id: string;
  lat: number;
  lng: number;
  title: string;
  color: string;
}

export interface DevicesMapProps {
  markers: readonly DeviceMarker[];
  /** A marker was clicked. */
  onSelect?: (id: string) => void;
  height?: number;
}

/**
 * Many devices on one map (DeviceMap shows one), each a circle in its state's colour with its
 * name on hover, on the installation's tile server; without tiles the circles still show. The
 * view fits the devices when the set of devices changes, not when only their states do, so a
 * live update never moves the map under the reader.
 */
export function DevicesMap({ markers, onSelect, height = 480 }: DevicesMapProps) {
  const { t } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const hasMarkers = markers.length > 0;
  const { ready, tilesFailed } = useLayerMap(host, hasMarkers);
  const select = useRef(onSelect);
  useEffect(() => {
    select.current = onSelect;
  });

  // The set of devices shown: the view is fitted to it when it changes.
  const ids = markers.map((marker) => marker.id).join(',');
  const fitted = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!ready) return;
    void loadLeaflet().then((L) => {
      ready.layer.clearLayers();
      for (const marker of markers) {
        L.circleMarker([marker.lat, marker.lng], {
          radius: 8,
          color: '#ffffff',
          weight: 1.5,
          fillColor: marker.color,
          fillOpacity: 0.9,
        })
          .bindTooltip(textElement(marker.title), { direction: 'top', offset: [0, -6] })
          .on('click', () => select.current?.(marker.id))
          .addTo(ready.layer);
      }
      if (fitted.current !== ids && markers.length > 0) {
        fitted.current = ids;
        const bounds = L.latLngBounds(markers.map((marker) => [marker.lat, marker.lng]));
        ready.map.fitBounds(bounds, { padding: [24, 24], maxZoom: 15 });
      }
    });
  }, [ready, markers, ids]);

  if (!hasMarkers) return <Empty description={t('iot.map.noLocation')} />;
  return (
    <Flex vertical gap={8} style={{ width: '100%' }} data-testid="devices-map">
      {tilesFailed && <Alert type="warning" showIcon title={t('iot.map.tilesFailed')} />}
      <div
        ref={host}
        style={{ width: '100%', height, background: '#eef2f5' }}
        data-testid="devices-map-canvas"
        data-markers={markers.length}
      />
    </Flex>
  );
}
