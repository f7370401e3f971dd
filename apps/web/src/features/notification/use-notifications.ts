import type { HeadNotification } from '@shuili/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { notificationApi, type MyNotificationQuery, type ReadTarget } from './notification-api';

/** Every notification query starts with this key, so one invalidation refreshes bell and list. */
export const NOTIFICATION_KEY = ['notification'] as const;
export const HEAD_KEY = [...NOTIFICATION_KEY, 'head'] as const;
/** The user's choice of which alarms pop up (kept on the server). */
export const ALARM_PREFERENCE_KEY = [...NOTIFICATION_KEY, 'alarmPreference'] as const;
/** The bell asks again this often, and whenever the window regains focus. */
export const HEAD_REFETCH_MS = 60_000;

/** The bell's unread counts and newest unread items. */
export function useHeadNotifications() {
  return useQuery({
    queryKey: HEAD_KEY,
    queryFn: ({ signal }) => notificationApi.queryHead(signal),
    refetchInterval: HEAD_REFETCH_MS,
    refetchOnWindowFocus: true,
    // A count is only as good as its last fetch: focus and the interval always ask again.
    staleTime: 0,
  });
}

/** One page of the user's notifications, filtered. */
export function useMyNotifications(query: MyNotificationQuery) {
  return useQuery({
    queryKey: [...NOTIFICATION_KEY, 'mine', query],
    queryFn: ({ signal }) => notificationApi.queryMine(query, signal),
    placeholderData: (previous) => previous,
  });
}

/** Marks notifications read, then refreshes the bell and every list. */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (target: ReadTarget) => notificationApi.markRead(target),
    onSuccess: (_result, target) => {
      // The bell drops the items at once instead of waiting for its refetch.
      queryClient.setQueryData<HeadNotification>(HEAD_KEY, (head) =>
        head ? withoutRead(head, target) : head,
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: NOTIFICATION_KEY }),
  });
}

function withoutRead(head: HeadNotification, target: ReadTarget): HeadNotification {
  // An alarm's entry stays until the alarm is acknowledged, read or not.
  const gone = head.list.filter(
    (item) =>
      !item.alarm &&
      ('ids' in target ? target.ids.includes(item.id) : !target.type || item.type === target.type),
  );
  const unread = { ...head.unread };
  if ('ids' in target) {
    for (const item of gone) unread[item.type] = Math.max(0, unread[item.type] - 1);
  } else if (target.type) {
    unread[target.type] = 0;
  } else {
    unread.notification = 0;
    unread.message = 0;
  }
  return { ...head, unread, list: head.list.filter((item) => !gone.includes(item)) };
}
