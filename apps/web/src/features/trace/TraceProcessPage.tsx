import { traceProcessEntity, traceProcessInputEntity } from '@shuili/contract';
import { Tabs } from 'antd';
import { ResourcePage } from '../../resource/ResourcePage';
import { useLabel } from '../../resource/field-label';
import type { AreaScreenProps } from '../monitor/screens/area-screen-props';

/** Spec /traceabilitySystem/process: processing (output within inputs × expected yield) and, on a second tab, the harvest batches each takes. */
export function TraceProcessPage(_props: AreaScreenProps) {
  const label = useLabel();
  const items = [
    {
      key: 'processes',
      label: label(traceProcessEntity.title),
      children: <ResourcePage entity={traceProcessEntity} />,
    },
    {
      key: 'inputs',
      label: label(traceProcessInputEntity.title),
      children: <ResourcePage entity={traceProcessInputEntity} />,
    },
  ];
  return <Tabs items={items} destroyOnHidden data-testid="trace-tabs" />;
}
