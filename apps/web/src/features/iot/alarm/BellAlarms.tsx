import {
  ALARM_LEVELS,
  alarmRecordEntity,
  iotDevicePageRoute,
  type AlarmPopupLevel,
  type NotificationItem,
} from '@shuili/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { BellList } from '../../notification/BellList';
import styles from '../../notification/NotificationBell.module.css';
import { notificationApi } from '../../notification/notification-api';
import { ALARM_PREFERENCE_KEY, useMarkRead } from '../../notification/use-notifications';
import { AlarmLevelTag } from './AlarmTags';

/** The bell's alarm tab label with its count. */
export function BellAlarmsLabel({ count }: { count: number }) {
  const { t } = useTranslation();
  return (
    <span data-testid="notification-tab-alarm">
      {t('iot.alarm.tabAlarms')} <Badge count={count} size="small" showZero={false} />
    </span>
  );
}

/**
 * The bell's alarms: those not acknowledged yet, newest first, each opening its device; the
 * user's choice of which new alarms pop up; the way to the warning list, where they are
 * acknowledged.
 */
export function BellAlarms({ items, onLeave }: { items: NotificationItem[]; onLeave: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const markRead = useMarkRead();
  const open = (item: NotificationItem) => {
    onLeave();
    if (!item.read) markRead.mutate({ ids: [item.id] });
    void navigate(
      item.alarm?.deviceId ? iotDevicePageRoute(item.alarm.deviceId) : alarmRecordEntity.route,
    );
  };
  return (
    <>
      <BellList
        items={items}
        empty={t('iot.alarm.noneWaiting')}
        onOpen={open}
        tagOf={(item) => item.alarm && <AlarmLevelTag level={item.alarm.level} />}
        testId="notification-list-alarm"
        itemTestId="notification-alarm"
      />
      <div className={styles.footer}>
        <PopupLevelSelect />
        <Link to={alarmRecordEntity.route} onClick={onLeave} data-testid="notification-alarm-list">
          {t('iot.alarm.viewList')}
        </Link>
      </div>
    </>
  );
}

/** Which new alarms pop up at once for this user: a level and above, or never. */
function PopupLevelSelect() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const preference = useQuery({
    queryKey: ALARM_PREFERENCE_KEY,
    queryFn: ({ signal }) => notificationApi.alarmPreference(signal),
  });
  const save = useMutation({
    mutationFn: (alarmPopupLevel: AlarmPopupLevel) =>
      notificationApi.setAlarmPreference({ alarmPopupLevel }),
    onSuccess: (saved) => queryClient.setQueryData(ALARM_PREFERENCE_KEY, saved),
  });
  return (
    <Space size={4}>
      <span>{t('iot.alarm.popupLevel')}</span>
      <Select<AlarmPopupLevel>
        size="small"
        popupMatchSelectWidth={false}
        value={preference.data?.alarmPopupLevel}
        loading={preference.isLoading || save.isPending}
        onChange={(level) => save.mutate(level)}
        aria-label={t('iot.alarm.popupLevel')}
        data-testid="alarm-popup-level"
        options={[
          ...ALARM_LEVELS.map((level) => ({
            value: level,
            label: t('iot.alarm.popupFrom', { level: t(`iot.alarm.levels.${level}`) }),
          })),
          { value: 'off' as const, label: t('iot.alarm.popupOff') },
        ]}
      />
    </Space>
  );
}
