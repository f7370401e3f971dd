import { sensorTemplateEntity } from '@shuili/contract';
import { useTranslation } from 'react-i18next';
import { ResourcePage } from '../../../resource/ResourcePage';
import { ScreenIntro } from './ScreenIntro';

/** Spec /sensorTemplate: kinds of sensors (factor, unit, range). */
export function SensorTemplatePage() {
  const { t } = useTranslation();
  return (
    <>
      <ScreenIntro>{t('iot.pages.intro.sensorTemplate')}</ScreenIntro>
      <ResourcePage entity={sensorTemplateEntity} />
    </>
  );
}
