import { operationLogEntity } from '@shuili/contract';
import { ResourcePage } from '../../resource/ResourcePage';

/** The operation log: every change made through the API (read-only, exportable). */
export function OperationLogPage() {
  return <ResourcePage entity={operationLogEntity} />;
}
