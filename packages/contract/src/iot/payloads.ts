import { z } from 'zod';

/**
 * JSON payloads on the device topics (DESIGN §6). A decoder per product may turn other protocols
 * into these same shapes.
 */

/** Milliseconds since the epoch or an ISO date; absent means "when the server received it". */
const tsSchema = z
  .union([z.number().int().positive(), z.iso.datetime({ offset: true })])
  .optional();

/** telemetry: one reading, or up to 100 readings (a device catching up after being offline). */
export const telemetryReadingSchema = z.object({
  ts: tsSchema,
  values: z.record(z.string(), z.unknown()),
});
export const telemetryPayloadSchema = z.union([
  telemetryReadingSchema,
  z.array(telemetryReadingSchema).min(1).max(100),
]);
export type TelemetryReading = z.infer<typeof telemetryReadingSchema>;

/** event: something happened on the device (fault code, door opened, card swiped). */
export const eventPayloadSchema = z.object({
  ts: tsSchema,
  key: z.string().max(64),
  params: z.record(z.string(), z.unknown()).default({}),
});
export type EventPayload = z.infer<typeof eventPayloadSchema>;

/** cmd (down): `name` is a command of the thing model or `setProperty` with the new values. */
export const commandPayloadSchema = z.object({
  id: z.string().max(64),
  name: z.string().max(64),
  params: z.record(z.string(), z.unknown()),
  /** Milliseconds since the epoch after which the device must not carry it out. */
  expiresAt: z.number().int(),
});
export type CommandPayload = z.infer<typeof commandPayloadSchema>;

/** cmd/ack (up): the device carried the command out (ok) or refused it, with a reason. */
export const commandAckSchema = z.object({
  id: z.string().max(64),
  ok: z.boolean(),
  message: z.string().max(500).optional(),
  /** Values after the command (a valve's new state), stored as telemetry. */
  values: z.record(z.string(), z.unknown()).optional(),
});
export type CommandAck = z.infer<typeof commandAckSchema>;

/** status (up, retained; also the device's last will with online false). */
export const statusPayloadSchema = z.object({ online: z.boolean() });

/** The largest payload the broker accepts from anyone (bytes). */
export const MAX_PAYLOAD_BYTES = 64 * 1024;
