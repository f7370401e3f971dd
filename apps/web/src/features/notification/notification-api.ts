import type {
  AlarmPreference,
  HeadNotification,
  NotificationItem,
  NotificationType,
  PageResult,
} from '@shuili/contract';
import { http } from '../../lib/http';

export interface MyNotificationQuery {
  currentPage: number;
  pageSize: number;
  type?: NotificationType;
  /** true: only read ones, false: only unread ones, undefined: all. */
  read?: boolean;
}

/** What to mark read: the given ids, else every unread one (of a type, if given). */
export type ReadTarget = { ids: string[] } | { type?: NotificationType };

/** The notification calls a signed-in user makes for themselves (bell and /mynotification). */
export const notificationApi = {
  queryHead: (signal?: AbortSignal) =>
    http.get<HeadNotification>('/api/notification/notification/queryHeadNotification', {
      signal,
    }),

  queryMine: (query: MyNotificationQuery, signal?: AbortSignal) =>
    http.get<PageResult<NotificationItem>>('/api/notification/notification/queryMyNotification', {
      params: {
        currentPage: query.currentPage,
        pageSize: query.pageSize,
        type: query.type,
        read: query.read === undefined ? undefined : String(query.read),
      },
      signal,
    }),

  markRead: (target: ReadTarget) =>
    http.post<{ marked: number }>('/api/notification/notification/readNotification', {
      data: target,
    }),

  alarmPreference: (signal?: AbortSignal) =>
    http.get<AlarmPreference>('/api/notification/notification/queryAlarmPreference', { signal }),

  setAlarmPreference: (preference: AlarmPreference) =>
    http.post<AlarmPreference>('/api/notification/notification/updateAlarmPreference', {
      data: preference,
    }),
};
