import { sysRoleEntity } from '@shuili/contract';
import { ResourcePage } from '../../resource/ResourcePage';
import { roleRowActions } from '../authority/RoleRowActions';

/** Spec §2 /authority/sysrole: the roles of the tenant. */
export function SysRolePage() {
  return <ResourcePage entity={sysRoleEntity} rowActions={roleRowActions} />;
}
