import { sensorInstanceEntity } from '@shuili/contract';
import { ResourcePage } from '../../../resource/ResourcePage';

/** Spec /sensorInstance: sensors bound to a device's property. */
export function SensorInstancePage() {
  return <ResourcePage entity={sensorInstanceEntity} />;
}
