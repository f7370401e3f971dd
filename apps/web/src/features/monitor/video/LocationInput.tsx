import { EnvironmentOutlined } from '@ant-design/icons';
import { Alert, Button, Form, InputNumber, Modal, Space, Typography } from 'antd';
import type { Map as LeafletMap, CircleMarker } from 'leaflet';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConsoleSettings } from '../../../lib/console-settings';
import { addTiles, loadLeaflet } from '../../iot/map/leaflet-loader';

/** With nothing placed yet, the map opens on the country at this zoom. */
const COUNTRY = { lat: 35.0, lng: 105.0, zoom: 4 };
const PLACED_ZOOM = 15;
const round6 = (value: number) => Math.round(value * 1e6) / 1e6;

export interface LocationInputProps {
  /** The form item's id (its label points at the number input). */
  id?: string;
  /** The longitude, fed by the form item this control stands in. */
  value?: number | null;
  onChange?: (value: number | null) => void;
  /** The form field holding the latitude, set with the longitude when a place is picked. */
  latField: string;
}

/**
 * The longitude field of an entity form with a map to pick the place on: a click puts the marker
 * there, and "Use this place" writes both longitude and latitude (6 decimals, about 10 cm) into
 * the form. Typing the numbers still works; the map uses the installation's tile server
 * (MAP_TILE_URL) and works without tiles too (the marker and the numbers show).
 */
export function LocationInput({ id, value, onChange, latField }: LocationInputProps) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const [open, setOpen] = useState(false);
  return (
    <Space.Compact style={{ width: '100%' }}>
      <InputNumber
        id={id}
        value={value ?? null}
        onChange={(next) => onChange?.(typeof next === 'number' ? next : null)}
        step={0.01}
        style={{ width: '100%' }}
      />
      <Button
        icon={<EnvironmentOutlined />}
        onClick={() => setOpen(true)}
        data-testid="location-pick"
      >
        {t('monitor.video.pickOnMap')}
      </Button>
      {open && (
        <LocationDialog
          lng={value ?? null}
          lat={(form.getFieldValue(latField) as number | null | undefined) ?? null}
          onClose={() => setOpen(false)}
          onPick={(place) => {
            onChange?.(place.lng);
            form.setFieldValue(latField, place.lat);
            void form.validateFields([latField]).catch(() => undefined);
            setOpen(false);
          }}
        />
      )}
    </Space.Compact>
  );
}

function LocationDialog({
  lng,
  lat,
  onClose,
  onPick,
}: {
  lng: number | null;
  lat: number | null;
  onClose: () => void;
  onPick: (place: { lng: number; lat: number }) => void;
}) {
  const { t } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const settings = useConsoleSettings();
  const tiles = settings.data?.mapTileUrl;
  const settled = !settings.isPending;
  const [tilesFailed, setTilesFailed] = useState(false);
  const placedBefore = lng !== null && lat !== null;
  const [place, setPlace] = useState(placedBefore ? { lng, lat } : undefined);

  useEffect(() => {
    if (!settled) return undefined;
    let map: LeafletMap | undefined;
    let disposed = false;
    void loadLeaflet().then((L) => {
      if (disposed || !host.current) return;
      const centre: [number, number] = placedBefore ? [lat, lng] : [COUNTRY.lat, COUNTRY.lng];
      map = L.map(host.current, {
        center: centre,
        zoom: placedBefore ? PLACED_ZOOM : COUNTRY.zoom,
      });
      addTiles(L, map, tiles, () => setTilesFailed(true));
      let marker: CircleMarker | undefined = placedBefore
        ? L.circleMarker(centre, { radius: 9, color: '#1677ff', fillOpacity: 0.8 }).addTo(map)
        : undefined;
      map.on('click', (event) => {
        const picked = { lat: round6(event.latlng.lat), lng: round6(event.latlng.lng) };
        marker ??= L.circleMarker(event.latlng, { radius: 9, color: '#1677ff', fillOpacity: 0.8 });
        marker.setLatLng(event.latlng).addTo(map!);
        setPlace(picked);
      });
    });
    return () => {
      disposed = true;
      map?.remove();
    };
    // The dialog opens on the values it was given; picks move the marker, not the map.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settled, tiles]);

  return (
    <Modal
      open
      width={720}
      title={t('monitor.video.pickOnMap')}
      onCancel={onClose}
      okText={t('monitor.video.usePlace')}
      okButtonProps={{ disabled: !place }}
      onOk={() => place && onPick(place)}
      destroyOnHidden
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        {(tilesFailed || settings.isError) && (
          <Alert type="warning" showIcon title={t('monitor.video.tilesFailed')} />
        )}
        <div
          ref={host}
          style={{ width: '100%', height: 380, background: '#eef2f5' }}
          data-testid="location-map"
        />
        <Typography.Text type="secondary" data-testid="location-picked">
          {place
            ? t('monitor.video.picked', {
                replace: { lat: place.lat.toFixed(6), lng: place.lng.toFixed(6) },
              })
            : t('monitor.video.clickToPick')}
        </Typography.Text>
      </Space>
    </Modal>
  );
}
