import { iotFactorEntity } from '@shuili/contract';
import { ResourcePage } from '../../../resource/ResourcePage';

/** Spec /factorList: the catalogue of measured quantities. */
export function IotFactorPage() {
  return <ResourcePage entity={iotFactorEntity} />;
}
