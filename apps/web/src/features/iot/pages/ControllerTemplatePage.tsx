import { controllerTemplateEntity } from '@shuili/contract';
import { useTranslation } from 'react-i18next';
import { ResourcePage } from '../../../resource/ResourcePage';
import { ScreenIntro } from './ScreenIntro';

/** Spec /controllerTemplate: kinds of actuators and their command. */
export function ControllerTemplatePage() {
  const { t } = useTranslation();
  return (
    <>
      <ScreenIntro>{t('iot.pages.intro.controllerTemplate')}</ScreenIntro>
      <ResourcePage entity={controllerTemplateEntity} />
    </>
  );
}
