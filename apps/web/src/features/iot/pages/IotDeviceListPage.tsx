import { iotDeviceEntity, iotDevicePageRoute } from '@shuili/contract';
import { useNavigate } from 'react-router';
import { ResourcePage } from '../../../resource/ResourcePage';
import type { ResourceRow } from '../../../resource/resource-row';

/** Spec /iot/deviceList: the tenant's devices; a row opens the device's page. */
export function IotDeviceListPage() {
  const navigate = useNavigate();
  return (
    <ResourcePage
      entity={iotDeviceEntity}
      onRowClick={(row: ResourceRow) => void navigate(iotDevicePageRoute(String(row.id)))}
    />
  );
}
