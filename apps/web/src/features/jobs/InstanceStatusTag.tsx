import { INSTANCE_STATE_OPTIONS, type InstanceState } from '@shuili/contract';
import { Tag } from 'antd';
import { useLabel } from '../../resource/field-label';
import { STATE_COLOURS } from './instance-rules';

/** An instance's state (spec §4) as a coloured tag. */
export function InstanceStatusTag({ status }: { status: unknown }) {
  const label = useLabel();
  const option = INSTANCE_STATE_OPTIONS.find((item) => item.value === status);
  if (!option) return null;
  return (
    <Tag
      color={STATE_COLOURS[option.value as InstanceState]}
      data-testid="instance-status"
      data-status={option.value}
    >
      {label(option.label)}
    </Tag>
  );
}
