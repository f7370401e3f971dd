import type { ThingParam } from '@shuili/contract';
import { Input, InputNumber, Select, Switch } from 'antd';
import { useLabel } from '../../../resource/field-label';

export interface ParamInputProps {
  param: ThingParam;
  value?: unknown;
  onChange?: (value: unknown) => void;
}

/** The input a parameter's type calls for, bounded by its range. */
export function ParamInput({ param, value, onChange }: ParamInputProps) {
  const label = useLabel();
  switch (param.type) {
    case 'boolean':
      return <Switch checked={value === true} onChange={(checked) => onChange?.(checked)} />;
    case 'enum':
      return (
        <Select
          value={value as number | undefined}
          onChange={onChange}
          style={{ minWidth: 140 }}
          options={(param.options ?? []).map((option) => ({
            value: option.value,
            label: label(option.label),
          }))}
        />
      );
    case 'string':
      return (
        <Input
          value={value as string | undefined}
          onChange={(event) => onChange?.(event.target.value)}
          maxLength={1024}
        />
      );
    default:
      return (
        <InputNumber
          value={value as number | undefined}
          onChange={(next) => onChange?.(next ?? undefined)}
          min={param.min}
          max={param.max}
          precision={param.type === 'integer' ? 0 : param.precision}
          addonAfter={param.unit}
          style={{ minWidth: 160 }}
        />
      );
  }
}
