import { SendOutlined } from '@ant-design/icons';
import type { ThingParam } from '@shuili/contract';
import { Button, Form, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { TOAST_MS } from '@shuili/contract';
import { feedback } from '../../../lib/feedback';
import { applyFieldErrors } from '../../../lib/form-errors';
import { HttpError } from '../../../lib/http';
import { useLabel } from '../../../resource/field-label';
import { ParamInput } from './ParamInput';

export interface CommandFormProps {
  /** The command's name on the wire (a thing-model command or setProperty). */
  name: string;
  params: readonly ThingParam[];
  /** Writable properties are set one by one and need every value; commands too. */
  onSend: (params: Record<string, unknown>) => Promise<unknown>;
  disabled?: boolean;
  testId: string;
}

/** A form drawn from a command's parameters, with its send button. */
export function CommandForm(props: CommandFormProps) {
  const { t } = useTranslation();
  const label = useLabel();
  const [form] = Form.useForm<Record<string, unknown>>();
  const fields = props.params.map((param) => param.key);

  const send = async () => {
    const values = await form.validateFields();
    try {
      await props.onSend(values);
    } catch (error) {
      if (!(error instanceof HttpError)) return;
      // The server names parameters as params.<key>; they sit beside their inputs.
      const named = error.fieldErrors.map((item) => ({
        ...item,
        field: item.field.replace(/^params\./, ''),
      }));
      const rest = applyFieldErrors(form, named, fields);
      // Errors without fields were toasted by the HTTP client already.
      if (rest.length > 0) {
        feedback.error(rest.map((item) => item.message).join('; '), TOAST_MS.error / 1000);
      }
    }
  };

  return (
    <Form form={form} layout="inline" data-testid={props.testId}>
      {props.params.map((param) => (
        <Form.Item
          key={param.key}
          name={param.key}
          label={label(param.name)}
          rules={
            param.type === 'boolean'
              ? []
              : [{ required: true, message: t('iot.command.paramRequired') }]
          }
          initialValue={param.type === 'boolean' ? false : undefined}
        >
          <ParamInput param={param} />
        </Form.Item>
      ))}
      <Space>
        <Button
          type="primary"
          icon={<SendOutlined />}
          disabled={props.disabled}
          onClick={() => void send()}
          data-testid={`${props.testId}-send`}
        >
          {t('iot.command.send')}
        </Button>
      </Space>
    </Form>
  );
}
