import { traceAreaEntity } from '@shuili/contract';
import { ResourcePage } from '../../resource/ResourcePage';
import type { AreaScreenProps } from '../monitor/screens/area-screen-props';
import { PolygonInput } from './map/PolygonInput';

// The outline is drawn on a map (corners clicked, dragged, removed), not typed as GeoJSON.
const AREA_FORM_CONTROLS = { polygon: <PolygonInput /> };

/** Spec /traceabilitySystem/area: the plots, their outline (GeoJSON Polygon in WGS 84, drawn on a map and checked by the server), area, soil and the devices serving them. */
export function TraceAreaPage(_props: AreaScreenProps) {
  return <ResourcePage entity={traceAreaEntity} fieldControls={AREA_FORM_CONTROLS} />;
}
