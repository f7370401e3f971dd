import { iotDevicePageRoute, type AlarmBellPush, type AlarmPreference } from '@shuili/contract';
import type { QueryClient } from '@tanstack/react-query';
import { Button } from 'antd';
import notification from 'antd/es/notification';
import { i18n, loadFeatureStrings, useLocaleStore } from '../../../i18n/i18n';
import { notificationApi } from '../../notification/notification-api';
import { ALARM_PREFERENCE_KEY } from '../../notification/use-notifications';
import { popsUp } from './alarm-levels';

/** How long a pop-up stays, by level: orange and red stay until closed. */
const SECONDS: Record<AlarmBellPush['level'], number> = { blue: 8, yellow: 15, orange: 0, red: 0 };
const TYPE = { blue: 'info', yellow: 'warning', orange: 'error', red: 'error' } as const;

/**
 * Pops a new alarm up at once when its level is at or above the user's choice: its texts in the
 * reader's language, and a button to its device. Loaded with the first alarm of the session.
 */
export async function showAlarmPopup(
  push: AlarmBellPush,
  deps: { queryClient: QueryClient; navigate: (path: string) => void },
): Promise<void> {
  const [preference] = await Promise.all([
    deps.queryClient.fetchQuery<AlarmPreference>({
      queryKey: ALARM_PREFERENCE_KEY,
      queryFn: ({ signal }) => notificationApi.alarmPreference(signal),
      staleTime: 60_000,
    }),
    loadFeatureStrings(['iot']),
  ]);
  if (!popsUp(push.level, preference.alarmPopupLevel)) return;
  const lang = useLocaleStore.getState().lang;
  const key = `alarm-${push.alarmId}`;
  const deviceId = push.deviceId;
  notification.open({
    key,
    type: TYPE[push.level],
    message: push.title[lang],
    description: push.content[lang],
    duration: SECONDS[push.level],
    placement: 'topRight',
    props: { 'data-testid': 'alarm-popup', 'data-level': push.level } as object,
    actions: deviceId ? (
      <Button
        type="primary"
        size="small"
        onClick={() => {
          notification.destroy(key);
          deps.navigate(iotDevicePageRoute(deviceId));
        }}
        data-testid="alarm-popup-device"
      >
        {i18n.t('iot.alarm.openDevice')}
      </Button>
    ) : undefined,
  });
}
