import { iotDeviceFileEntity } from '@shuili/contract';
import { useTranslation } from 'react-i18next';
import { ResourcePage } from '../../../resource/ResourcePage';
import { DEVICE_CELL } from './BindingCells';
import { DeviceFileActions, DeviceFileUpload } from './DeviceFileUpload';

const IMAGES = { fileKind: 'image' } as const;

/** Spec /imageList: photos of devices (site, installation, insect-trap catches). */
export function DeviceImagePage() {
  const { t } = useTranslation();
  return (
    <ResourcePage
      entity={iotDeviceFileEntity}
      title={t('iot.pages.images')}
      fixedFilters={IMAGES}
      toolbarExtra={<DeviceFileUpload kind="image" />}
      rowActions={(row) => <DeviceFileActions row={row} />}
      cellRenderers={DEVICE_CELL}
    />
  );
}
