import { InputNumber, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The fault code a "Fault" choice starts with (spec §3: any value but 0 is a fault). */
const FAULT = 1;

/**
 * A device's health as a choice, not a raw code (spec: 0 normal, any other value a fault):
 * Normal or Fault, and with Fault the device's fault code, which a field device may report.
 */
export function HealthSelect({
  value,
  onChange,
  id,
}: {
  value?: number | null;
  onChange?: (value: number | null) => void;
  id?: string;
}) {
  const { t } = useTranslation();
  const blank = value === undefined || value === null;
  // A fault whose code is being retyped (blank for a moment) is still a fault.
  const [fault, setFault] = useState(!blank && value !== 0);
  return (
    <Space.Compact style={{ width: '100%' }}>
      <Select
        id={id}
        value={fault ? 'fault' : blank ? undefined : 'normal'}
        onChange={(choice) => {
          setFault(choice === 'fault');
          onChange?.(choice === 'fault' ? FAULT : 0);
        }}
        options={[
          { value: 'normal', label: t('iot.device.normal') },
          { value: 'fault', label: t('iot.device.healthFault') },
        ]}
        data-testid="health-select"
        style={{ minWidth: 120 }}
      />
      {fault && (
        <InputNumber
          value={value}
          // Blank is not "normal": it stays a fault, and the field's rules ask for a code.
          onChange={(code) => onChange?.(code)}
          aria-label={t('iot.device.faultCode')}
          placeholder={t('iot.device.faultCode')}
          data-testid="health-code"
          style={{ width: '100%' }}
        />
      )}
    </Space.Compact>
  );
}
