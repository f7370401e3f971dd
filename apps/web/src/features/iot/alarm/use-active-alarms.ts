import { ALARM_LEVELS, liveTopics, type AlarmPush } from '@shuili/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSessionStore } from '../../../core/session-store';
import { useLiveTopic } from '../../../core/live/use-live-topic';
import { deviceApi, type AlarmRow } from '../device/device-api';

/** Every alarm query of a device starts with this key: one live push refreshes them all. */
export const deviceAlarmsKey = (deviceId: string) => ['iot', 'alarms', deviceId] as const;

/**
 * The device's alarms that still hold, highest level first, kept current by the live alarm
 * topic (raised, cleared, acknowledged).
 */
export function useActiveAlarms(deviceId: string): AlarmRow[] {
  const queryClient = useQueryClient();
  const tenantCode = useSessionStore((state) => state.user?.tenantCode);
  const active = useQuery({
    queryKey: [...deviceAlarmsKey(deviceId), 'open'],
    queryFn: ({ signal }) => deviceApi.alarms(deviceId, 'open', signal),
  });
  useLiveTopic(tenantCode ? liveTopics.alarms(tenantCode) : undefined, (message) => {
    const push = message.payload as AlarmPush | undefined;
    if (push?.deviceId === deviceId)
      void queryClient.invalidateQueries({ queryKey: deviceAlarmsKey(deviceId) });
  });
  const rank = (row: AlarmRow) => ALARM_LEVELS.indexOf(row.level as (typeof ALARM_LEVELS)[number]);
  return [...(active.data?.list ?? [])].sort((a, b) => rank(b) - rank(a));
}
