import type { DeviceKeyValue } from '@shuili/contract';
import { Badge, Space, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/format';
import { useLabel } from '../../../resource/field-label';
import type { CellRenderer } from '../../../resource/ResourcePage';
import { AlarmLevelTag } from '../alarm/AlarmTags';
import { useValueWords } from '../units';
import { formatThingValue } from '../device/thing-value';

/** Health as words: 0 is normal, anything else the device's fault code. */
export function HealthCell({ value }: { value: unknown }) {
  const { t } = useTranslation();
  if (value === null || value === undefined) return null;
  const code = Number(value);
  return code === 0 ? (
    <Tag color="green" data-testid="device-health" data-health={code}>
      {t('iot.device.normal')}
    </Tag>
  ) : (
    <Tag color="red" data-testid="device-health" data-health={code}>
      {t('iot.device.fault', { code })}
    </Tag>
  );
}

/** Online as a coloured dot with its word. */
export function OnlineCell({ value }: { value: unknown }) {
  const { t } = useTranslation();
  const online = value === true;
  return (
    <span data-testid="device-online-dot" data-online={online}>
      <Badge
        status={online ? 'success' : 'default'}
        text={t(online ? 'iot.device.isOnline' : 'iot.device.isOffline')}
      />
    </span>
  );
}

/** The device's key live values as the device page writes them, each with its time. */
function KeyValuesCell({ value }: { value: unknown }) {
  const label = useLabel();
  const words = useValueWords();
  if (!Array.isArray(value) || value.length === 0) return null;
  return (
    <Space size={[12, 0]} wrap data-testid="device-key-values">
      {(value as DeviceKeyValue[]).map((item) => (
        <Tooltip key={item.param.key} title={formatDate(item.ts)}>
          <span data-testid="device-key-value" data-key={item.param.key}>
            <Typography.Text type="secondary">{label(item.param.name)} </Typography.Text>
            {formatThingValue(item.param, item.value, words) ?? '—'}
          </span>
        </Tooltip>
      ))}
    </Space>
  );
}

/** The device list's cells that are no raw value: health, connection, alarm, live values. */
export const DEVICE_LIST_CELLS: Readonly<Record<string, CellRenderer>> = {
  status: (value) => <HealthCell value={value} />,
  online: (value) => <OnlineCell value={value} />,
  alarmLevel: (value) =>
    typeof value === 'string' && value ? <AlarmLevelTag level={value} /> : null,
  keyValues: (value) => <KeyValuesCell value={value} />,
};
