import { sysUrlEntity } from '@shuili/contract';
import { ResourcePage } from '../../resource/ResourcePage';

/** Spec §2 /authority/sysurl: API URL permissions. */
export function SysUrlPage() {
  return <ResourcePage entity={sysUrlEntity} />;
}
