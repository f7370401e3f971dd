import { Space, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/format';
import { AlarmLevelTag } from './AlarmTags';
import { useActiveAlarms } from './use-active-alarms';

/** The device header's alarm: the highest level that holds now and how many hold, or none. */
export function ActiveAlarm({ deviceId }: { deviceId: string }) {
  const { t } = useTranslation();
  const active = useActiveAlarms(deviceId);
  const top = active[0];
  if (!top)
    return (
      <span data-testid="device-alarm" data-active="0">
        {t('iot.alarm.none')}
      </span>
    );
  return (
    <Tooltip
      title={active
        .map((row) => `${row.ruleIdLabel ?? row.propertyKey} · ${formatDate(row.startedAt)}`)
        .join('\n')}
    >
      <Space size={4} data-testid="device-alarm" data-active={active.length} data-level={top.level}>
        <AlarmLevelTag level={top.level} />
        <Tag color="red">
          {t('iot.alarm.open')}
          {active.length > 1 ? ` ×${active.length}` : ''}
        </Tag>
      </Space>
    </Tooltip>
  );
}
