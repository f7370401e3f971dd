import { iotCommandEntity } from '@shuili/contract';
import { ResourcePage } from '../../../resource/ResourcePage';

/** Operation records: every command sent to a device. */
export function IotCommandPage() {
  return <ResourcePage entity={iotCommandEntity} />;
}
