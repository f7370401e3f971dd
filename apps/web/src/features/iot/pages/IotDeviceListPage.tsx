import { iotDeviceEntity, iotDevicePageRoute } from '@shuili/contract';
import { ResourcePage } from '../../../resource/ResourcePage';
import type { ResourceRow } from '../../../resource/resource-row';
import { DEVICE_LIST_CELLS } from './device-list-cells';
import { HealthSelect } from './HealthSelect';

// The form picks health from words, not a raw code.
const DEVICE_FORM_CONTROLS = { status: <HealthSelect /> };

const deviceHref = (row: ResourceRow) => iotDevicePageRoute(String(row.id));

/**
 * Spec /iot/deviceList: the tenant's devices with their health, connection, alarm and key live
 * values; each row links to the device's page.
 */
export function IotDeviceListPage() {
  return (
    <ResourcePage
      entity={iotDeviceEntity}
      cellRenderers={DEVICE_LIST_CELLS}
      fieldControls={DEVICE_FORM_CONTROLS}
      rowHref={deviceHref}
    />
  );
}
