/** The user's own notifications (spec §2: the bell's dropdown links here). */
export const MY_NOTIFICATION_PATH = '/mynotification';

/** /mynotification opened on one notification. */
export function notificationPath(id: string): string {
  return `${MY_NOTIFICATION_PATH}?id=${encodeURIComponent(id)}`;
}
