import { iotDeviceFileEntity } from '@shuili/contract';
import { useTranslation } from 'react-i18next';
import { ResourcePage } from '../../../resource/ResourcePage';
import { DEVICE_CELL } from './BindingCells';
import { DeviceFileActions, DeviceFileUpload } from './DeviceFileUpload';

const FILES = { fileKind: 'file' } as const;

/** Spec /wenjianList: documents of devices (manuals, drawings, acceptance reports). */
export function DeviceFilePage() {
  const { t } = useTranslation();
  return (
    <ResourcePage
      entity={iotDeviceFileEntity}
      title={t('iot.pages.files')}
      fixedFilters={FILES}
      toolbarExtra={<DeviceFileUpload kind="file" />}
      rowActions={(row) => <DeviceFileActions row={row} />}
      cellRenderers={DEVICE_CELL}
    />
  );
}
