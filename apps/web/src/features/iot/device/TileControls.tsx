import { SET_PROPERTY_COMMAND, TOAST_MS, type ThingParam, type TileAction } from '@shuili/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Modal, Space, type ButtonProps } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../lib/feedback';
import { HttpError } from '../../../lib/http';
import { useLabel } from '../../../resource/field-label';
import { useTranslate } from '../../../resource/use-field-rules';
import { sendChecked } from './CommandForm';
import { confirmControl, controlSummary, ControlSummaryView } from './confirm-control';
import { deviceApi } from './device-api';
import { ParamFields } from './ParamFields';

export interface TileControlsProps {
  deviceId: string;
  deviceName: string;
  /** The live value's key (test ids). */
  propertyKey: string;
  /** What the thing model offers beside this value (contract tileActions). */
  actions: readonly TileAction[];
}

/**
 * The controls beside one live value (a valve's open and close, a pump's start and stop):
 * each asks for confirmation naming the device, the action and its parameters before it is
 * sent; one that still needs a value (the duration of an opening) asks for it in that dialog.
 */
export function TileControls({ deviceId, deviceName, propertyKey, actions }: TileControlsProps) {
  const { t } = useTranslation();
  const translate = useTranslate();
  const label = useLabel();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState<TileAction>();

  const actionName = (action: TileAction) =>
    action.command === SET_PROPERTY_COMMAND
      ? t('iot.command.setValue', { name: label(action.name) })
      : label(action.name);
  const summaryOf = (action: TileAction) =>
    controlSummary(deviceName, actionName(action), action.params, action.fixed, label, translate);

  const send = async (action: TileAction, values: Record<string, unknown>) => {
    await deviceApi.send({
      deviceId,
      name: action.command,
      params: { ...action.fixed, ...values },
    });
    feedback.success(
      t('iot.command.sentToast', { action: actionName(action), device: deviceName }),
      TOAST_MS.success / 1000,
    );
    void queryClient.invalidateQueries({ queryKey: ['iot', 'commands', deviceId] });
  };

  const start = async (action: TileAction) => {
    if (action.ask.length > 0) {
      setAsking(action);
      return;
    }
    if (!(await confirmControl(summaryOf(action), translate))) return;
    await send(action, {}).catch((error: unknown) => {
      // Field errors are not toasted by the HTTP client (quietFieldErrors): this has no form.
      if (error instanceof HttpError && error.fieldErrors.length > 0)
        feedback.error(
          error.fieldErrors.map((one) => one.message).join('; '),
          TOAST_MS.error / 1000,
        );
    });
  };

  return (
    <>
      {/* A row of its own under the value's age (Space alone is inline and would run into it). */}
      <Space size={4} wrap style={{ display: 'flex', marginTop: 8 }}>
        {actions.map((action) => (
          <Button
            key={action.command}
            size="small"
            onClick={() => void start(action)}
            data-testid={`tile-action-${propertyKey}-${action.command}`}
          >
            {actionName(action)}
          </Button>
        ))}
      </Space>
      {asking && (
        <AskDialog
          title={t('iot.command.confirmTitle', { action: actionName(asking), device: deviceName })}
          summary={<ControlSummaryView summary={summaryOf(asking)} t={translate} />}
          ask={asking.ask}
          onSend={(values) => send(asking, values)}
          onClose={() => setAsking(undefined)}
        />
      )}
    </>
  );
}

interface AskDialogProps {
  title: string;
  summary: ReactNode;
  ask: readonly ThingParam[];
  onSend: (values: Record<string, unknown>) => Promise<void>;
  onClose: () => void;
}

/** The confirmation of a tile control that still needs values: what goes out, and those values. */
function AskDialog({ title, summary, ask, onSend, onClose }: AskDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Record<string, unknown>>();
  const [busy, setBusy] = useState(false);

  const confirm = async () => {
    const values = await form.validateFields().catch(() => undefined);
    if (!values) return;
    setBusy(true);
    const sent = await sendChecked(form, { params: ask, onSend }, values);
    setBusy(false);
    if (sent) onClose();
  };

  return (
    <Modal
      open
      title={title}
      okText={t('iot.command.confirmOk')}
      cancelText={t('iot.command.confirmCancel')}
      confirmLoading={busy}
      onOk={() => void confirm()}
      onCancel={onClose}
      okButtonProps={{ 'data-testid': 'tile-dialog-ok' } as ButtonProps}
    >
      {summary}
      <Form form={form} layout="vertical" data-testid="tile-dialog-form">
        <ParamFields params={ask} />
      </Form>
    </Modal>
  );
}
