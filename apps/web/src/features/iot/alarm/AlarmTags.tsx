import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/format';
import { LEVEL_COLOR } from './alarm-levels';

/** An alarm level as its colour and name. */
export function AlarmLevelTag({ level }: { level: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={LEVEL_COLOR[level]} data-testid="alarm-level" data-level={level}>
      {t(`iot.alarm.levels.${level}`, level)}
    </Tag>
  );
}

/** Whether the alarm still holds (red) or cleared (green), and when it cleared. */
export function AlarmStateTag({ state, clearedAt }: { state: string; clearedAt?: unknown }) {
  const { t } = useTranslation();
  if (state === 'open')
    return (
      <Tag color="red" data-testid="alarm-state" data-state="open">
        {t('iot.alarm.open')}
      </Tag>
    );
  const tag = (
    <Tag color="green" data-testid="alarm-state" data-state={state}>
      {t('iot.alarm.cleared')}
    </Tag>
  );
  return clearedAt ? <Tooltip title={formatDate(String(clearedAt))}>{tag}</Tooltip> : tag;
}

/** Who acknowledged the alarm, when and why, or that nobody has yet (orange). */
export function AlarmAckTag(props: { by?: unknown; at?: unknown; comment?: unknown }) {
  const { t } = useTranslation();
  if (!props.at)
    return (
      <Tag color="orange" data-testid="alarm-ack" data-acknowledged="false">
        {t('iot.alarm.unacknowledged')}
      </Tag>
    );
  const comment = typeof props.comment === 'string' && props.comment ? props.comment : undefined;
  return (
    <Tooltip title={[formatDate(String(props.at)), comment].filter(Boolean).join(' · ')}>
      <Tag color="default" data-testid="alarm-ack" data-acknowledged="true">
        {t('iot.alarm.acknowledgedBy', { name: String(props.by ?? '') })}
      </Tag>
    </Tooltip>
  );
}
