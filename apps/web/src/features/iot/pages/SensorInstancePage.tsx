import { sensorInstanceEntity } from '@shuili/contract';
import { useTranslation } from 'react-i18next';
import { ResourcePage } from '../../../resource/ResourcePage';
import { BINDING_CELLS } from './BindingCells';
import { ScreenIntro } from './ScreenIntro';

/** Spec /sensorInstance: sensors bound to a device's property (linked device, named property). */
export function SensorInstancePage() {
  const { t } = useTranslation();
  return (
    <>
      <ScreenIntro>{t('iot.pages.intro.sensorInstance')}</ScreenIntro>
      <ResourcePage entity={sensorInstanceEntity} cellRenderers={BINDING_CELLS} />
    </>
  );
}
