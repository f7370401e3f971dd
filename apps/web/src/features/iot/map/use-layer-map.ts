import type { LayerGroup, Map as LeafletMap } from 'leaflet';
import { useEffect, useState, type RefObject } from 'react';
import { useConsoleSettings } from '../../../lib/console-settings';
import { addTiles, loadLeaflet } from './leaflet-loader';

export interface LayerMap {
  /** The map and the one layer its shapes are drawn on, once Leaflet is loaded. */
  ready: { map: LeafletMap; layer: LayerGroup } | undefined;
  /** The tile server did not answer, or the console settings naming it could not be read. */
  tilesFailed: boolean;
}

/**
 * A Leaflet map in `host` on the installation's tile server (console setting mapTileUrl; without
 * tiles the shapes still draw), with one layer group the caller clears and redraws. Made once
 * the settings are read and while `enabled`, removed when either changes or the host unmounts.
 */
export function useLayerMap(host: RefObject<HTMLDivElement | null>, enabled = true): LayerMap {
  const [tilesFailed, setTilesFailed] = useState(false);
  const [ready, setReady] = useState<LayerMap['ready']>();
  const settings = useConsoleSettings();
  const tiles = settings.data?.mapTileUrl;
  const settled = !settings.isPending;

  useEffect(() => {
    if (!settled || !enabled) return undefined;
    let map: LeafletMap | undefined;
    let disposed = false;
    void loadLeaflet().then((L) => {
      if (disposed || !host.current) return;
      map = L.map(host.current, { zoomSnap: 0.5 });
      addTiles(L, map, tiles, () => setTilesFailed(true));
      setReady({ map, layer: L.layerGroup().addTo(map) });
    });
    return () => {
      disposed = true;
      setReady(undefined);
      map?.remove();
    };
  }, [host, settled, tiles, enabled]);

  return { ready, tilesFailed: tilesFailed || settings.isError };
}
