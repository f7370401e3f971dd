import { traceGrowthRecordEntity, tracePlantingEntity } from '@shuili/contract';
import { Tabs } from 'antd';
import { ResourcePage } from '../../resource/ResourcePage';
import { useLabel } from '../../resource/field-label';
import type { AreaScreenProps } from '../monitor/screens/area-screen-props';

/** Spec /traceabilitySystem/grow: growth records and, on a second tab, the plantings they belong to (plot, variety, sown, state). */
export function TraceGrowPage(_props: AreaScreenProps) {
  const label = useLabel();
  const items = [
    {
      key: 'records',
      label: label(traceGrowthRecordEntity.title),
      children: <ResourcePage entity={traceGrowthRecordEntity} />,
    },
    {
      key: 'plantings',
      label: label(tracePlantingEntity.title),
      children: <ResourcePage entity={tracePlantingEntity} />,
    },
  ];
  return <Tabs items={items} destroyOnHidden data-testid="trace-tabs" />;
}
