import { controllerTemplateEntity } from '@shuili/contract';
import { ResourcePage } from '../../../resource/ResourcePage';

/** Spec /controllerTemplate: kinds of actuators and their command. */
export function ControllerTemplatePage() {
  return <ResourcePage entity={controllerTemplateEntity} />;
}
