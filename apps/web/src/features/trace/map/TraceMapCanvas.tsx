import type { TraceMapBase, TraceMapPlot } from '@shuili/contract';
import { Alert, Flex } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { textElement } from '../../../lib/text-element';
import { loadLeaflet } from '../../iot/map/leaflet-loader';
import { useLayerMap } from '../../iot/map/use-layer-map';
import { deviceColor } from '../../monitor/widgets/widget-colors';
import type { AreaDevice } from '../../monitor/widgets/widget-types';
import { PLOT_STATE_COLOR, plotState } from './plot-colors';

export interface TraceMapCanvasProps {
  bases: readonly TraceMapBase[];
  plots: readonly TraceMapPlot[];
  /** The plots' devices, kept live by the page. */
  devices: readonly AreaDevice[];
  selectedPlotId: string | undefined;
  onSelectPlot: (id: string) => void;
  height?: number;
}

/**
 * The digital map's Leaflet canvas on the installation's tile server (console setting
 * mapTileUrl; none, the shapes still draw): bases as labelled pins, plots as polygons in their
 * planting state's colour, devices as circles in their state's colour. The view fits the bases
 * and plots when that set changes, never on a device's live update.
 */
export function TraceMapCanvas({
  bases,
  plots,
  devices,
  selectedPlotId,
  onSelectPlot,
  height = 560,
}: TraceMapCanvasProps) {
  const { t } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const { ready, tilesFailed } = useLayerMap(host);
  const select = useRef(onSelectPlot);
  useEffect(() => {
    select.current = onSelectPlot;
  });

  const shapes = [
    ...bases.map((base) => `b${base.id}`),
    ...plots.map((plot) => `p${plot.id}`),
  ].join(',');
  const fitted = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!ready) return;
    void loadLeaflet().then((L) => {
      ready.layer.clearLayers();
      const points: Array<[number, number]> = [];
      for (const plot of plots) {
        if (!plot.ring) continue;
        const latLngs = plot.ring.map(([lng, lat]) => [lat, lng] as [number, number]);
        points.push(...latLngs);
        const color = PLOT_STATE_COLOR[plotState(plot)] ?? PLOT_STATE_COLOR.idle!;
        const selected = plot.id === selectedPlotId;
        L.polygon(latLngs, {
          color: selected ? '#003a8c' : color,
          weight: selected ? 3 : 1.5,
          fillColor: color,
          fillOpacity: selected ? 0.5 : 0.3,
          className: `trace-map-plot trace-map-plot-${plot.id}`,
        })
          .bindTooltip(textElement(plot.areaName), { sticky: true })
          .on('click', () => select.current(plot.id))
          .addTo(ready.layer);
      }
      for (const base of bases) {
        if (base.lat === null || base.lng === null) continue;
        points.push([base.lat, base.lng]);
        // The pin stands above its point, so the plots around it stay visible and clickable.
        const icon = L.divIcon({
          className: `trace-map-base trace-map-base-${base.id}`,
          html: '<span style="display:block;width:14px;height:14px;border-radius:3px;background:#722ed1;border:2px solid #fff;box-shadow:0 0 2px #0006"></span>',
          iconSize: [14, 14],
          iconAnchor: [7, 20],
        });
        // A base clicked: the view closes in on it and its plots (bases lie kilometres apart).
        const own = plots.flatMap((plot) =>
          plot.baseId === base.id && plot.ring
            ? plot.ring.map(([lng, lat]) => [lat, lng] as [number, number])
            : [],
        );
        L.marker([base.lat, base.lng], { icon, keyboard: false })
          .bindTooltip(textElement(base.baseName), {
            permanent: true,
            direction: 'top',
            offset: [0, -20],
          })
          .on('click', () =>
            ready.map.fitBounds(L.latLngBounds([[base.lat!, base.lng!], ...own]), {
              padding: [48, 48],
              maxZoom: 17,
            }),
          )
          .addTo(ready.layer);
      }
      for (const device of devices) {
        if (device.lat === null || device.lng === null) continue;
        L.circleMarker([device.lat, device.lng], {
          radius: 7,
          color: '#ffffff',
          weight: 1.5,
          fillColor: deviceColor(device),
          fillOpacity: 0.95,
          className: 'trace-map-device',
        })
          .bindTooltip(textElement(device.deviceName), { direction: 'top', offset: [0, -6] })
          .addTo(ready.layer);
      }
      if (fitted.current !== shapes && points.length > 0) {
        fitted.current = shapes;
        ready.map.fitBounds(L.latLngBounds(points), { padding: [32, 32], maxZoom: 17 });
      }
    });
  }, [ready, bases, plots, devices, selectedPlotId, shapes]);

  return (
    <Flex vertical gap={8} style={{ width: '100%' }}>
      {tilesFailed && <Alert type="warning" showIcon title={t('trace.map.tilesFailed')} />}
      <div
        ref={host}
        style={{ width: '100%', height, background: '#eef2f5' }}
        data-testid="trace-map-canvas"
        data-bases={bases.filter((base) => base.lat !== null && base.lng !== null).length}
        data-plots={plots.filter((plot) => plot.ring).length}
        data-devices={devices.filter((device) => device.lat !== null && device.lng !== null).length}
      />
    </Flex>
  );
}
