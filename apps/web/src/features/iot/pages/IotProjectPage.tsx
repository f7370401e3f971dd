import { iotProjectEntity } from '@shuili/contract';
import { ResourcePage } from '../../../resource/ResourcePage';

/** Spec /IOTprojectList: the projects devices are installed under. */
export function IotProjectPage() {
  return <ResourcePage entity={iotProjectEntity} />;
}
