import { sysUserEntity } from '@shuili/contract';
import { ResourcePage } from '../../resource/ResourcePage';
import { userRowActions } from '../admin-extra/UserRowActions';

/** Spec §2 /admin/sysuser: the users of the tenant. */
export function SysUserPage() {
  return <ResourcePage entity={sysUserEntity} rowActions={userRowActions} />;
}
