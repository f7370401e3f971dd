import type { ThingParam } from '@shuili/contract';
import { Form } from 'antd';
import { useLabel } from '../../../resource/field-label';
import { useTranslate } from '../../../resource/use-field-rules';
import { paramMessage } from './param-value';
import { ParamInput } from './ParamInput';

/** The form rule of one parameter: the server's check, its message in the reader's language. */
export function paramRule(
  param: ThingParam,
  name: string,
  t: (key: string, values?: Record<string, unknown>) => string,
) {
  return {
    validator: async (_: unknown, value: unknown) => {
      const message = paramMessage(param, name, value, t);
      if (message) throw new Error(message);
    },
  };
}

/** The inputs of a control's parameters, each checked as the server checks it. */
export function ParamFields({ params }: { params: readonly ThingParam[] }) {
  const translate = useTranslate();
  const label = useLabel();
  return params.map((param) => (
    <Form.Item
      key={param.key}
      name={param.key}
      label={label(param.name)}
      rules={[paramRule(param, label(param.name), translate)]}
      initialValue={param.type === 'boolean' ? false : undefined}
    >
      <ParamInput param={param} />
    </Form.Item>
  ));
}
