import { traceAreaEntity } from '@shuili/contract';
import { ResourcePage } from '../../resource/ResourcePage';
import type { AreaScreenProps } from '../monitor/screens/area-screen-props';

/** Spec /traceabilitySystem/area: the plots, their outline (GeoJSON Polygon in WGS 84, checked by the server; a map editor comes later), area, soil and the devices serving them. */
export function TraceAreaPage(_props: AreaScreenProps) {
  return <ResourcePage entity={traceAreaEntity} />;
}
