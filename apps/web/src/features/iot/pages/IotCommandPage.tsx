import { iotCommandEntity } from '@shuili/contract';
import { CommandText } from '../device/CommandText';
import { ResourcePage, type CellRenderer } from '../../../resource/ResourcePage';

// The command and its parameters in words from the device's thing model, not key and JSON.
const CELLS: Readonly<Record<string, CellRenderer>> = {
  name: (value, row) => (
    <CommandText deviceId={String(row.deviceId ?? '')} name={String(value ?? '')} part="name" />
  ),
  params: (value, row) => (
    <CommandText
      deviceId={String(row.deviceId ?? '')}
      name={String(row.name ?? '')}
      params={value}
      part="params"
    />
  ),
};

/** Operation records: every command sent to a device. */
export function IotCommandPage() {
  return <ResourcePage entity={iotCommandEntity} cellRenderers={CELLS} />;
}
