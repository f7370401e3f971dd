import type { ThingParam } from '@shuili/contract';
import { Input, Select, Switch } from 'antd';
import { useState } from 'react';
import { useLabel } from '../../../resource/field-label';
import { parseTypedNumber } from './param-value';
import { useUnit } from '../units';

export interface ParamInputProps {
  param: ThingParam;
  value?: unknown;
  onChange?: (value: unknown) => void;
}

/** The input a parameter's type calls for; its range is checked by the form, never imposed. */
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
      return <NumberText param={param} value={value} onChange={onChange} />;
  }
}

/**
 * A number kept as typed: no clamping to the range and no dropping of text that is not a
 * number (an input that quietly turns 99999 into 1440 or `abc` into the last value sends what
 * nobody asked for). The form's rules name what is wrong instead.
 */
function NumberText({ param, value, onChange }: ParamInputProps) {
  const unit = useUnit();
  const [text, setText] = useState('');
  // A value set from outside (a form reset) shows as itself; what was typed shows as typed.
  const shown = parseTypedNumber(text) === value ? text : value === undefined ? '' : String(value);
  return (
    <Input
      value={shown}
      inputMode="decimal"
      onChange={(event) => {
        setText(event.target.value);
        onChange?.(parseTypedNumber(event.target.value));
      }}
      suffix={unit(param.unit)}
      placeholder={rangeHint(param)}
      style={{ width: 180 }}
    />
  );
}

/** The range as a hint inside the empty input (1–4), so the limits are seen before typing. */
function rangeHint(param: ThingParam): string | undefined {
  if (param.min === undefined && param.max === undefined) return undefined;
  return `${param.min ?? ''}–${param.max ?? ''}`;
}
