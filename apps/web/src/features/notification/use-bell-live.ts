import { liveTopics, type AlarmBellPush, type AlarmPush } from '@shuili/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { useSessionStore } from '../../core/session-store';
import { useLiveTopic } from '../../core/live/use-live-topic';
import { HEAD_KEY } from './use-notifications';

/** Pushes that come together (an alarm storm) refresh the bell once. */
const REFRESH_DELAY_MS = 300;

/**
 * Keeps the bell current over the live connection: the user's own topic (a new notice or alarm
 * for them) and the tenant's alarm topic (an alarm acknowledged by anyone leaves every bell),
 * both filtered by the broker to what the user may see. A new alarm pops up at once (the pop-up
 * code loads with the first one).
 */
export function useBellLive(): void {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const user = useSessionStore((state) => state.user);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const refresh = () => {
    timer.current ??= setTimeout(() => {
      timer.current = undefined;
      void queryClient.invalidateQueries({ queryKey: HEAD_KEY });
    }, REFRESH_DELAY_MS);
  };

  useLiveTopic(user && liveTopics.userNotify(user.tenantCode, user.id), (message) => {
    refresh();
    const push = message.payload as AlarmBellPush | undefined;
    if (push?.kind !== 'alarm') return;
    void import('../iot/alarm/alarm-popup')
      .then((module) =>
        module.showAlarmPopup(push, { queryClient, navigate: (path) => void navigate(path) }),
      )
      .catch((error: unknown) => console.error(error));
  });
  useLiveTopic(user && liveTopics.alarms(user.tenantCode), (message) => {
    if ((message.payload as AlarmPush | undefined)?.event === 'acknowledged') refresh();
  });
}
