import { traceGrowthRecordEntity, tracePlantingEntity } from '@shuili/contract';
import { Tabs } from 'antd';
import { ResourcePage } from '../../resource/ResourcePage';
import { useLabel } from '../../resource/field-label';
import type { AreaScreenProps } from '../monitor/screens/area-screen-props';
import { usePhotoPanel } from './photos/use-photo-panel';

/** Spec /traceabilitySystem/grow: growth records and, on a second tab, the plantings they belong to (plot, variety, sown, state). */
export function TraceGrowPage(_props: AreaScreenProps) {
  const label = useLabel();
  // Each growth record's photos, in a side panel (named by its time and stage).
  const photos = usePhotoPanel(traceGrowthRecordEntity, 'growthRecord', (row) =>
    [String(row['recordedAt'] ?? '').slice(0, 10), String(row['stage'] ?? '')].join(' '),
  );
  const items = [
    {
      key: 'records',
      label: label(traceGrowthRecordEntity.title),
      children: <ResourcePage entity={traceGrowthRecordEntity} rowActions={photos.rowActions} />,
    },
    {
      key: 'plantings',
      label: label(tracePlantingEntity.title),
      children: <ResourcePage entity={tracePlantingEntity} />,
    },
  ];
  return (
    <>
      <Tabs items={items} destroyOnHidden data-testid="trace-tabs" />
      {photos.panel}
    </>
  );
}
