import { consumptionSessionEntity } from '@shuili/contract';
import { ResourcePage } from '../../../resource/ResourcePage';
import type { AreaScreenProps } from '../../monitor/screens/area-screen-props';

/**
 * Spec /skgg/consumption: the card controllers' sessions (card, household, well, start and end,
 * meters at both ends, water, energy, amount, end reason), read only, with the late and
 * lost-card flags; filtered and exported (xlsx, pdf) by the entity kit.
 */
export function ConsumptionPage(_props: AreaScreenProps) {
  return <ResourcePage entity={consumptionSessionEntity} />;
}
