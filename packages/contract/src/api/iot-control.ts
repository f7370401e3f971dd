import { z } from 'zod';
import { COMMAND_STATUSES } from '../entities/iot/iot-command.entity';
import type { AlarmLevel } from '../entities/iot/alarm-rule.entity';
import type { Lang } from '../i18n/lang';
import { thingCommandSchema, thingPropertySchema } from '../iot/thing-model';

const idSchema = z
  .union([z.string(), z.number().int().nonnegative()], { error: 'validation.invalid' })
  .transform((value) => String(value))
  .pipe(z.string().regex(/^\d{1,18}$/, { error: 'validation.invalid' }));

/** Default and longest wait for an offline device (DOMAINS.md: a control must not run days late). */
export const COMMAND_DEFAULT_EXPIRES_SECONDS = 600;
export const COMMAND_MAX_EXPIRES_SECONDS = 7 * 24 * 3600;

/** POST /api/iot/command/sendCommand */
export const sendCommandSchema = z.object({
  deviceId: idSchema,
  /** A command of the product's thing model, or `setProperty`. */
  name: z.string().trim().min(1).max(64),
  params: z.record(z.string(), z.unknown()).default({}),
  /** How long a command for an offline device waits before it expires. */
  expiresInSeconds: z
    .number({ error: 'validation.invalid' })
    .int({ error: 'validation.invalid' })
    .min(1)
    .max(COMMAND_MAX_EXPIRES_SECONDS)
    .default(COMMAND_DEFAULT_EXPIRES_SECONDS),
});
export type SendCommandInput = z.input<typeof sendCommandSchema>;

export const commandIdSchema = z.object({ id: idSchema });

/** One command as the device page and the live push see it. */
export const commandViewSchema = z.object({
  id: z.string(),
  deviceId: z.string().nullable(),
  name: z.string(),
  params: z.record(z.string(), z.unknown()),
  status: z.enum(COMMAND_STATUSES),
  username: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  sentAt: z.string().nullable(),
  ackedAt: z.string().nullable(),
  latencyMs: z.number().nullable(),
  result: z.string().nullable(),
});
export type CommandView = z.infer<typeof commandViewSchema>;

/** What liveTopics.commands carries: a command's new status. */
export type CommandPush = CommandView & { deviceNo: string | null };

/**
 * What liveTopics.presence carries: the server saw a device come online (every connection) or
 * go offline (clean disconnect, keep-alive lost, its last will), once it has recorded it.
 */
export interface PresencePush {
  deviceId: string;
  deviceNo: string;
  online: boolean;
  /** When the transport saw it (ISO). */
  at: string;
}

/** GET /api/iot/command/queryDeviceControl?deviceId=: what the device page can send. */
export const deviceControlSchema = z.object({
  deviceId: z.string(),
  online: z.boolean(),
  commands: z.array(thingCommandSchema),
  /** Writable properties, set through the `setProperty` command. */
  writable: z.array(thingPropertySchema),
  /** The newest commands of the device, newest first. */
  recent: z.array(commandViewSchema),
});
export type DeviceControl = z.infer<typeof deviceControlSchema>;

/** Most alarms acknowledged by one call (one transaction). */
export const ACKNOWLEDGE_MAX = 500;

/**
 * POST /api/iot/alarm/acknowledgeAlarm: one alarm (`id`) or several at once (`ids`, all or none),
 * with one comment.
 */
export const acknowledgeAlarmSchema = z
  .object({
    id: idSchema.optional(),
    ids: z.array(idSchema).min(1).max(ACKNOWLEDGE_MAX).optional(),
    comment: z.string().trim().max(500).default(''),
  })
  .refine((body) => body.id !== undefined || body.ids !== undefined, {
    error: 'validation.required',
    path: ['ids'],
  });

/**
 * What a user's bell topic (liveTopics.userNotify) carries for an alarm raised that they may
 * see: its texts in every interface language, for the reader to show theirs.
 */
export interface AlarmBellPush {
  kind: 'alarm';
  notificationId: string;
  alarmId: string;
  deviceId: string | null;
  level: AlarmLevel;
  title: Record<Lang, string>;
  content: Record<Lang, string>;
}

/** What liveTopics.alarms carries. */
export interface AlarmPush {
  event: 'raised' | 'cleared' | 'acknowledged';
  id: string;
  ruleId: string | null;
  ruleName: string | null;
  deviceId: string | null;
  deviceNo: string | null;
  propertyKey: string;
  level: AlarmLevel;
  value: number | null;
  threshold: number | null;
  state: 'open' | 'cleared';
  startedAt: string;
  clearedAt: string | null;
}
