import type { Label, ThingParam } from '@shuili/contract';
import { Descriptions, type ButtonProps } from 'antd';
import { feedback } from '../../../lib/feedback';
import type { Translate } from '../../../resource/field-rules';
import { paramValueText } from './param-value';

/** What is about to be sent, in words: device, action and each parameter with its value. */
export interface ControlSummary {
  device: string;
  action: string;
  params: Array<{ name: string; value: string }>;
}

/** Describes a control about to be sent with the parameters' labels, units and option names. */
export function controlSummary(
  device: string,
  action: string,
  params: readonly ThingParam[],
  values: Record<string, unknown>,
  label: (name: Label) => string,
  t: Translate,
): ControlSummary {
  return {
    device,
    action,
    params: params
      .filter((param) => values[param.key] !== undefined)
      .map((param) => ({
        name: label(param.name),
        value: paramValueText(param, values[param.key], label, t),
      })),
  };
}

/** The summary as a small table (the confirmation's body, and the tile dialog's head). */
export function ControlSummaryView({ summary, t }: { summary: ControlSummary; t: Translate }) {
  return (
    <Descriptions
      size="small"
      column={1}
      data-testid="control-summary"
      items={[
        { key: 'device', label: t('iot.command.confirmDevice'), children: summary.device },
        { key: 'action', label: t('iot.command.confirmAction'), children: summary.action },
        {
          key: 'params',
          label: t('iot.command.confirmParams'),
          children:
            summary.params.length === 0
              ? t('iot.command.noParams')
              : summary.params.map((param) => `${param.name}: ${param.value}`).join(', '),
        },
      ]}
    />
  );
}

/**
 * Asks before a control goes out (it moves water or machines): answers true only when the
 * operator confirmed, false when they cancelled or closed the dialog.
 */
export function confirmControl(summary: ControlSummary, t: Translate): Promise<boolean> {
  return new Promise((resolve) => {
    feedback.confirm({
      title: t('iot.command.confirmTitle', { action: summary.action, device: summary.device }),
      content: <ControlSummaryView summary={summary} t={t} />,
      okText: t('iot.command.confirmOk'),
      cancelText: t('iot.command.confirmCancel'),
      rootClassName: 'control-confirm',
      okButtonProps: { 'data-testid': 'control-confirm-ok' } as ButtonProps,
      onOk: () => resolve(true),
      onCancel: () => resolve(false),
    });
  });
}
