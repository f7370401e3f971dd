import { sensorTemplateEntity } from '@shuili/contract';
import { ResourcePage } from '../../../resource/ResourcePage';

/** Spec /sensorTemplate: kinds of sensors (factor, unit, range). */
export function SensorTemplatePage() {
  return <ResourcePage entity={sensorTemplateEntity} />;
}
