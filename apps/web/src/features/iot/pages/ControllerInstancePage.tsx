import { controllerInstanceEntity } from '@shuili/contract';
import { ResourcePage } from '../../../resource/ResourcePage';

/** Spec /controllerInstance: actuators bound to a device's channel. */
export function ControllerInstancePage() {
  return <ResourcePage entity={controllerInstanceEntity} />;
}
