import { fertilizerRecipeEntity } from '@shuili/contract';
import { ResourcePage } from '../../../resource/ResourcePage';

/** Water and fertilizer configuration: the recipes (target EC and pH, channel ratios per stage). */
export function FertilizerRecipeTab() {
  return <ResourcePage entity={fertilizerRecipeEntity} />;
}
