import {
  priceClassEntity,
  priceTierEntity,
  waterCoefficientEntity,
  wellBillingEntity,
  type AreaDef,
} from '@shuili/contract';
import { Tabs } from 'antd';
import { ResourcePage } from '../../resource/ResourcePage';
import { useLabel } from '../../resource/field-label';
import { AreaDeviceSelect } from '../monitor/fertigation/AreaDeviceSelect';
import type { AreaScreenProps } from '../monitor/screens/area-screen-props';
import { PriceTierStairs } from './PriceTierStairs';

/**
 * Spec /skgg/waterSet: the prices. Crop classes with their base price and quota per mu, the
 * tiers above the quota (the staircase drawn under them), each well's billing mode and prices,
 * and the wells' electricity-to-water coefficients with their whole history (published: farmers
 * distrust a hidden coefficient).
 */
export function WaterSetPage({ area }: AreaScreenProps) {
  const label = useLabel();
  const wellSelect = (skgg: AreaDef | undefined) =>
    skgg ? { deviceId: <AreaDeviceSelect area={skgg} /> } : undefined;
  const items = [
    {
      key: 'classes',
      label: label(priceClassEntity.title),
      children: <ResourcePage entity={priceClassEntity} />,
    },
    {
      key: 'tiers',
      label: label(priceTierEntity.title),
      children: (
        <>
          <ResourcePage entity={priceTierEntity} />
          <PriceTierStairs />
        </>
      ),
    },
    {
      key: 'wells',
      label: label(wellBillingEntity.title),
      children: <ResourcePage entity={wellBillingEntity} fieldControls={wellSelect(area)} />,
    },
    {
      key: 'coefficients',
      label: label(waterCoefficientEntity.title),
      children: <ResourcePage entity={waterCoefficientEntity} fieldControls={wellSelect(area)} />,
    },
  ];
  return <Tabs items={items} destroyOnHidden data-testid="water-set-tabs" />;
}
