import { sysZoneEntity } from '@shuili/contract';
import { ResourcePage } from '../../resource/ResourcePage';

/** Spec §2 /admin/regional: the irrigation zone tree. */
export function RegionalPage() {
  return <ResourcePage entity={sysZoneEntity} />;
}
