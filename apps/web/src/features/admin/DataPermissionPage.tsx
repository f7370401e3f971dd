import { dataPermissionEntity } from '@shuili/contract';
import { ResourcePage } from '../../resource/ResourcePage';

/** Spec §2 /authority/datapermission: the data fields each role may see per menu. */
export function DataPermissionPage() {
  return <ResourcePage entity={dataPermissionEntity} />;
}
