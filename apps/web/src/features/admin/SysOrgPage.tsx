import { sysOrgEntity } from '@shuili/contract';
import { ResourcePage } from '../../resource/ResourcePage';

/** Spec §2 /admin/sysorg: the organisation tree. */
export function SysOrgPage() {
  return <ResourcePage entity={sysOrgEntity} />;
}
