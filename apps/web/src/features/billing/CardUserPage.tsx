import { householdEntity } from '@shuili/contract';
import { ResourcePage } from '../../resource/ResourcePage';
import type { AreaScreenProps } from '../monitor/screens/area-screen-props';

/**
 * Spec /skgg/cardUser: the households that hold user cards. The ID number is typed on add (and
 * again only to correct it); lists and exports show it masked, and a cashier finds a household
 * by the full number with the search form's exact match.
 */
export function CardUserPage(_props: AreaScreenProps) {
  return <ResourcePage entity={householdEntity} />;
}
