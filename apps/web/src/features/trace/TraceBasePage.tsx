import { traceBaseEntity, traceProducerEntity } from '@shuili/contract';
import { Tabs } from 'antd';
import { ResourcePage } from '../../resource/ResourcePage';
import { useLabel } from '../../resource/field-label';
import type { AreaScreenProps } from '../monitor/screens/area-screen-props';
import { usePhotoPanel } from './photos/use-photo-panel';

/** Spec /traceabilitySystem/base: the bases (farms) and, on a second tab, the producers they belong to (producer code, certificate language, commitment). */
export function TraceBasePage(_props: AreaScreenProps) {
  const label = useLabel();
  // Each base's photos, in a side panel.
  const photos = usePhotoPanel(traceBaseEntity, 'base', (row) => String(row['baseName'] ?? ''));
  const items = [
    {
      key: 'bases',
      label: label(traceBaseEntity.title),
      children: <ResourcePage entity={traceBaseEntity} rowActions={photos.rowActions} />,
    },
    {
      key: 'producers',
      label: label(traceProducerEntity.title),
      children: <ResourcePage entity={traceProducerEntity} />,
    },
  ];
  return (
    <>
      <Tabs items={items} destroyOnHidden data-testid="trace-tabs" />
      {photos.panel}
    </>
  );
}
