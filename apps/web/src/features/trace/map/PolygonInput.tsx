import { TRACE_MAP_CALLS, type TraceMap } from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Flex, Form, Space, Typography } from 'antd';
import type { LayerGroup, Map as LeafletMap } from 'leaflet';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConsoleSettings } from '../../../lib/console-settings';
import { http } from '../../../lib/http';
import { addTiles, loadLeaflet } from '../../iot/map/leaflet-loader';
import { polygonText, ringMu, verticesOf, type Ring } from './plot-geometry';

/** Where the map opens with neither an outline nor a located base (all of China). */
const WIDE_VIEW = { center: [35, 105] as [number, number], zoom: 4 };

const VERTEX_HTML =
  '<span style="display:block;width:12px;height:12px;border-radius:50%;background:#fff;border:2px solid #1677ff;cursor:move"></span>';

/**
 * A plot's outline (GeoJSON Polygon, WGS 84) drawn on the map, as the plot form's control for
 * the `polygon` field: a click on the map adds a corner, a corner dragged moves, a corner clicked
 * is removed, Clear starts again; the area in mu shows as it changes (the server's formula).
 * The form's area takes the drawn outline's. The map opens on the outline, else on the base
 * picked in the form. Leaflet's own draggable markers and polygon redraw do it: no plugin.
 */
export function PolygonInput({
  value,
  onChange,
  id,
}: {
  value?: unknown;
  onChange?: (value: unknown) => void;
  id?: string;
}) {
  const { t } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const [vertices, setVertices] = useState<Ring>(() => verticesOf(value));
  const [ready, setReady] = useState<{ map: LeafletMap; layer: LayerGroup } | undefined>();
  const [tilesFailed, setTilesFailed] = useState(false);
  const settings = useConsoleSettings();
  const tiles = settings.data?.mapTileUrl;
  const settled = !settings.isPending;
  const form = Form.useFormInstance();
  const baseId = Form.useWatch('baseId', form) as unknown;
  const bases = useQuery({
    queryKey: ['trace', 'map'],
    queryFn: ({ signal }) => http.get<TraceMap>(TRACE_MAP_CALLS.query, { signal, silent: true }),
  });
  // The form's reference select holds {value, label}.
  const chosen =
    typeof baseId === 'object' && baseId !== null ? (baseId as { value?: unknown }).value : baseId;
  const base = bases.data?.bases.find((one) => one.id === String(chosen ?? ''));

  // What the form holds changed from outside (a reset, another row): follow it.
  const sent = useRef<string>(typeof value === 'string' ? value : '');
  useEffect(() => {
    const text = typeof value === 'string' ? value : '';
    if (text !== sent.current) {
      sent.current = text;
      setVertices(verticesOf(text));
    }
  }, [value]);

  const commit = (next: Ring) => {
    setVertices(next);
    const text = polygonText(next);
    sent.current = text;
    onChange?.(text);
    // A new outline has a new area: the form's area follows it (still editable after drawing),
    // or an edited plot would keep the area of its old outline.
    if (next.length >= 3) form.setFieldValue('areaMu', ringMu(next));
  };
  const latest = useRef({ vertices, commit });
  useEffect(() => {
    latest.current = { vertices, commit };
  });

  useEffect(() => {
    if (!settled) return undefined;
    let map: LeafletMap | undefined;
    let observer: ResizeObserver | undefined;
    let disposed = false;
    void loadLeaflet().then((L) => {
      if (disposed || !host.current) return;
      map = L.map(host.current, { zoomSnap: 0.5, doubleClickZoom: false });
      map.setView(WIDE_VIEW.center, WIDE_VIEW.zoom);
      addTiles(L, map, tiles, () => setTilesFailed(true));
      map.on('click', (event) => {
        const { lat, lng } = event.latlng;
        latest.current.commit([...latest.current.vertices, [lng, lat]]);
      });
      setReady({ map, layer: L.layerGroup().addTo(map) });
      // The form opens in a dialog that grows into place: the map follows its size.
      observer = new ResizeObserver(() => map?.invalidateSize());
      observer.observe(host.current);
    });
    return () => {
      disposed = true;
      observer?.disconnect();
      setReady(undefined);
      map?.remove();
    };
  }, [settled, tiles]);

  const centred = useRef<LeafletMap | undefined>(undefined);
  // What the view was opened on (for the reader's tests: draw once the base is in view).
  const [openedOn, setOpenedOn] = useState<'outline' | 'base'>();
  // Open on the outline when there is one, else on the base; once per map.
  useEffect(() => {
    if (!ready || centred.current === ready.map) return;
    const located = base?.lat != null && base.lng != null ? base : undefined;
    if (vertices.length === 0 && !located) return;
    centred.current = ready.map;
    void loadLeaflet().then((L) => {
      if (vertices.length > 0) {
        ready.map.fitBounds(L.latLngBounds(vertices.map(([lng, lat]) => [lat, lng])), {
          padding: [24, 24],
          maxZoom: 18,
          animate: false,
        });
        setOpenedOn('outline');
      } else if (located) {
        ready.map.setView([located.lat!, located.lng!], 16, { animate: false });
        setOpenedOn('base');
      }
    });
  }, [ready, vertices, base]);

  // The corners and the outline, drawn again whenever they change.
  useEffect(() => {
    if (!ready) return;
    void loadLeaflet().then((L) => {
      ready.layer.clearLayers();
      const latLngs = vertices.map(([lng, lat]) => L.latLng(lat, lng));
      const outline =
        latLngs.length >= 2
          ? L.polygon(latLngs, { color: '#1677ff', weight: 2, fillOpacity: 0.2 }).addTo(ready.layer)
          : undefined;
      latLngs.forEach((at, index) => {
        const icon = L.divIcon({
          className: 'trace-outline-vertex',
          html: VERTEX_HTML,
          iconSize: [12, 12],
        });
        L.marker(at, { icon, draggable: true, keyboard: false })
          .on('drag', (event) => {
            // The outline follows the corner while it moves; the form hears of the drop.
            const moved = [...latLngs];
            moved[index] = (event.target as { getLatLng: () => typeof at }).getLatLng();
            outline?.setLatLngs(moved);
          })
          .on('dragend', (event) => {
            const { lat, lng } = (event.target as { getLatLng: () => typeof at }).getLatLng();
            const next = [...latest.current.vertices];
            next[index] = [lng, lat];
            latest.current.commit(next);
          })
          .on('click', () =>
            latest.current.commit(latest.current.vertices.filter((_, i) => i !== index)),
          )
          .addTo(ready.layer);
      });
    });
  }, [ready, vertices]);

  const mu = ringMu(vertices);
  return (
    <Flex
      vertical
      gap={6}
      id={id}
      data-testid="trace-outline-editor"
      data-vertices={vertices.length}
      data-view={openedOn}
    >
      {(tilesFailed || settings.isError) && (
        <Alert type="warning" showIcon title={t('trace.map.tilesFailed')} />
      )}
      <Typography.Text type="secondary">{t('trace.map.editor.hint')}</Typography.Text>
      <div
        ref={host}
        style={{ width: '100%', height: 320, background: '#eef2f5' }}
        data-testid="trace-outline-canvas"
      />
      <Space wrap>
        <Typography.Text data-testid="trace-outline-area" data-mu={mu}>
          {vertices.length >= 3
            ? t('trace.map.editor.area', { value: mu })
            : t('trace.map.editor.needThree')}
        </Typography.Text>
        <Typography.Text type="secondary">
          {t('trace.map.editor.points', { count: vertices.length })}
        </Typography.Text>
        <Button size="small" onClick={() => commit([])} disabled={vertices.length === 0}>
          {t('trace.map.editor.clear')}
        </Button>
      </Space>
    </Flex>
  );
}
