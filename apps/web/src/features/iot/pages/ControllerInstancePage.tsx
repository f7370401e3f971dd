import { controllerInstanceEntity } from '@shuili/contract';
import { useTranslation } from 'react-i18next';
import { ResourcePage } from '../../../resource/ResourcePage';
import { BINDING_CELLS } from './BindingCells';
import { ScreenIntro } from './ScreenIntro';

/** Spec /controllerInstance: actuators on a device's channel (linked device, named state property). */
export function ControllerInstancePage() {
  const { t } = useTranslation();
  return (
    <>
      <ScreenIntro>{t('iot.pages.intro.controllerInstance')}</ScreenIntro>
      <ResourcePage entity={controllerInstanceEntity} cellRenderers={BINDING_CELLS} />
    </>
  );
}
