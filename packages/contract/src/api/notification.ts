import { z } from 'zod';
import { ALARM_LEVELS } from '../entities/iot/alarm-rule.entity';

export const NOTIFICATION_TYPES = ['notification', 'message'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** One notification as a user sees it (spec §3 notification item, plus read state). */
export const notificationItemSchema = z.object({
  id: z.string(),
  type: z.enum(NOTIFICATION_TYPES),
  title: z.string(),
  /** The content as plain text (rich text is for the detail view). */
  description: z.string(),
  content: z.string(),
  priority: z.string(),
  publisher: z.string().nullable(),
  datetime: z.string(),
  read: z.boolean(),
  /** The alarm a bell entry is about (the device page it links to); absent for other notices. */
  alarm: z
    .object({ id: z.string(), deviceId: z.string().nullable(), level: z.enum(ALARM_LEVELS) })
    .optional(),
});
export type NotificationItem = z.infer<typeof notificationItemSchema>;

/**
 * The bell: unread counts per type and the newest unread items, and the alarms not yet
 * acknowledged (an alarm stays on the bell until someone acknowledges it, read or not; its
 * entries are the items with `alarm`, and they are not counted as unread notices).
 */
export const headNotificationSchema = z.object({
  unread: z.object({ notification: z.number(), message: z.number() }),
  alarms: z.number(),
  list: z.array(notificationItemSchema),
});
export type HeadNotification = z.infer<typeof headNotificationSchema>;

export const myNotificationQuerySchema = z.object({
  currentPage: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
  type: z.enum(NOTIFICATION_TYPES).optional(),
  /** "true": only read ones, "false": only unread ones, absent: all. */
  read: z.enum(['true', 'false']).optional(),
});

export const notificationIdsSchema = z.object({
  ids: z
    .array(z.string().regex(/^\d+$/, { error: 'validation.invalid' }))
    .min(1)
    .max(500)
    .optional(),
  /** With no ids: mark every unread notification (of this type, if given) read. */
  type: z.enum(NOTIFICATION_TYPES).optional(),
});

/** The lowest alarm level that pops up at once for a user; `off`: none. */
export const ALARM_POPUP_LEVELS = [...ALARM_LEVELS, 'off'] as const;
export type AlarmPopupLevel = (typeof ALARM_POPUP_LEVELS)[number];

/** GET queryAlarmPreference / POST updateAlarmPreference: the user's own setting. */
export const alarmPreferenceSchema = z.object({
  alarmPopupLevel: z.enum(ALARM_POPUP_LEVELS, { error: 'validation.invalid' }),
});
export type AlarmPreference = z.infer<typeof alarmPreferenceSchema>;
