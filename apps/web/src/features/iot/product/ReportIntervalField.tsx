import { DEFAULT_REPORT_INTERVAL_SECONDS } from '@shuili/contract';
import { Form, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';

const MAX_SECONDS = 86_400;

export interface ReportIntervalFieldProps {
  value: number | undefined;
  onChange: (value: number | undefined) => void;
}

/**
 * How often the product's devices report (thing model reportIntervalSeconds): the device page
 * greys values older than that. Blank is the default; a value out of range is shown as an error,
 * never clamped (the server refuses it too).
 */
export function ReportIntervalField({ value, onChange }: ReportIntervalFieldProps) {
  const { t } = useTranslation();
  const invalid =
    value !== undefined && (!Number.isInteger(value) || value < 1 || value > MAX_SECONDS);
  return (
    <Form.Item
      label={t('iot.thingModel.reportInterval')}
      validateStatus={invalid ? 'error' : undefined}
      help={
        invalid
          ? t('iot.thingModel.reportIntervalRange', { max: MAX_SECONDS })
          : t('iot.thingModel.reportIntervalHelp', { seconds: DEFAULT_REPORT_INTERVAL_SECONDS })
      }
      style={{ maxWidth: 420 }}
    >
      <InputNumber
        value={value ?? null}
        onChange={(next) => onChange(typeof next === 'number' ? next : undefined)}
        placeholder={String(DEFAULT_REPORT_INTERVAL_SECONDS)}
        suffix="s"
        style={{ width: 200 }}
        data-testid="thing-model-report-interval"
      />
    </Form.Item>
  );
}
