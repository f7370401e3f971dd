import { sysRegionEntity } from '@shuili/contract';
import { ResourcePage } from '../../resource/ResourcePage';

/** Spec §2 /admin/sysregion: administrative divisions, loaded a level at a time. */
export function SysRegionPage() {
  return <ResourcePage entity={sysRegionEntity} />;
}
