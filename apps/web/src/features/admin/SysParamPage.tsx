import { sysParamEntity } from '@shuili/contract';
import { ResourcePage } from '../../resource/ResourcePage';

/** Spec §2 /admin/sysparam: tenant parameters. */
export function SysParamPage() {
  return <ResourcePage entity={sysParamEntity} />;
}
