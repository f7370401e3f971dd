import { sysTenantEntity } from '@shuili/contract';
import { ResourcePage } from '../../resource/ResourcePage';

/** Spec §2 /systenant: tenants (platform tenant only); a new one gets its administrator. */
export function SysTenantPage() {
  return <ResourcePage entity={sysTenantEntity} />;
}
