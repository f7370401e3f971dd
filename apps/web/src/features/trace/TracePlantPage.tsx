import { tracePlantEntity } from '@shuili/contract';
import { ResourcePage } from '../../resource/ResourcePage';
import type { AreaScreenProps } from '../monitor/screens/area-screen-props';

/** Spec /traceabilitySystem/plant: the varieties, with the GTIN their packages carry by default. */
export function TracePlantPage(_props: AreaScreenProps) {
  return <ResourcePage entity={tracePlantEntity} />;
}
