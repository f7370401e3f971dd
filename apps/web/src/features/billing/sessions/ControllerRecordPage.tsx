import { controllerRecordEntity } from '@shuili/contract';
import { ResourcePage } from '../../../resource/ResourcePage';
import type { AreaScreenProps } from '../../monitor/screens/area-screen-props';

/**
 * Spec /skgg/record: every record the card controllers uploaded, keyed by controller and record
 * number, with what became of it (posted, duplicate, conflict, refused), read only.
 */
export function ControllerRecordPage(_props: AreaScreenProps) {
  return <ResourcePage entity={controllerRecordEntity} />;
}
