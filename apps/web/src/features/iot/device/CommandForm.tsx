import { SendOutlined } from '@ant-design/icons';
import { TOAST_MS, type ThingParam } from '@shuili/contract';
import { Button, Form, Space, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../lib/feedback';
import { applyFieldErrors } from '../../../lib/form-errors';
import { HttpError } from '../../../lib/http';
import { useLabel } from '../../../resource/field-label';
import { useTranslate } from '../../../resource/use-field-rules';
import { confirmControl, controlSummary } from './confirm-control';
import { ParamFields } from './ParamFields';

export interface CommandFormProps {
  /** The command's name on the wire (a thing-model command or setProperty). */
  name: string;
  /** What the operator reads for it in the confirmation ("Open valve"). */
  actionName: string;
  /** The device's name, for the confirmation. */
  deviceName: string;
  params: readonly ThingParam[];
  /** Writable properties are set one by one and need every value; commands too. */
  onSend: (params: Record<string, unknown>) => Promise<unknown>;
  disabled?: boolean;
  testId: string;
}

/**
 * A form drawn from a command's parameters, with its send button: every value is checked by
 * the server's own rule (the contract's paramProblem) and the operator confirms before it goes.
 */
export function CommandForm(props: CommandFormProps) {
  const { t } = useTranslation();
  const translate = useTranslate();
  const label = useLabel();
  const [form] = Form.useForm<Record<string, unknown>>();

  const send = async () => {
    // Refused values are shown beside their inputs; nothing else is to be done with them.
    const values = await form.validateFields().catch(() => undefined);
    if (!values) return;
    const summary = controlSummary(
      props.deviceName,
      props.actionName,
      props.params,
      values,
      label,
      translate,
    );
    if (!(await confirmControl(summary, translate))) return;
    await sendChecked(form, props, values);
  };

  return (
    <Form form={form} layout="inline" data-testid={props.testId}>
      <ParamFields params={props.params} />
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

/**
 * Sends, and puts what the server still refuses beside the inputs it names (params.<key>);
 * the rest is toasted. Never rejects: a refusal is shown, not left unhandled.
 */
export async function sendChecked(
  form: FormInstance<Record<string, unknown>>,
  props: Pick<CommandFormProps, 'onSend' | 'params'>,
  values: Record<string, unknown>,
): Promise<boolean> {
  try {
    await props.onSend(values);
    return true;
  } catch (error) {
    // Other failures (network, 5xx) were toasted by the HTTP client already.
    if (!(error instanceof HttpError)) return false;
    const named = error.fieldErrors.map((item) => ({
      ...item,
      field: item.field.replace(/^params\./, ''),
    }));
    const rest = applyFieldErrors(
      form,
      named,
      props.params.map((param) => param.key),
    );
    if (rest.length > 0)
      feedback.error(rest.map((item) => item.message).join('; '), TOAST_MS.error / 1000);
    return false;
  }
}
