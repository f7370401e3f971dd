import { liveTopics } from '@shuili/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useLiveTopic } from '../../../core/live/use-live-topic';
import { useSessionStore } from '../../../core/session-store';
import { OVERVIEW_KEY } from './workbench-api';

/**
 * The overview is read again at most this often while pushes keep coming: a device storm
 * (hundreds going offline at once) costs one reading a second, not one per push.
 */
const REFRESH_MS = 1_000;

/**
 * Keeps the overview current over the tab's live connection: a device going online or offline
 * (presence), an alarm raised, cleared or acknowledged, a command sent or answered each read the
 * overview again, coalesced (the broker sends each only what the user may read). No polling.
 */
export function useWorkbenchLive(): void {
  const queryClient = useQueryClient();
  const tenantCode = useSessionStore((state) => state.user?.tenantCode);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const refresh = () => {
    timer.current ??= setTimeout(() => {
      timer.current = undefined;
      void queryClient.invalidateQueries({ queryKey: OVERVIEW_KEY });
    }, REFRESH_MS);
  };
  useLiveTopic(tenantCode && liveTopics.presence(tenantCode), refresh);
  useLiveTopic(tenantCode && liveTopics.alarms(tenantCode), refresh);
  useLiveTopic(tenantCode && liveTopics.commands(tenantCode), refresh);
}
