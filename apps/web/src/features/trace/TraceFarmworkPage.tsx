import { traceFarmworkEntity } from '@shuili/contract';
import { ResourcePage } from '../../resource/ResourcePage';
import type { AreaScreenProps } from '../monitor/screens/area-screen-props';

/** Spec /traceabilitySystem/farmwork: farm work on plantings; a spraying names its pre-harvest interval. */
export function TraceFarmworkPage(_props: AreaScreenProps) {
  return <ResourcePage entity={traceFarmworkEntity} />;
}
