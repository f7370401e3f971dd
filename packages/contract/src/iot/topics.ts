/**
 * MQTT topics (DESIGN §6). A device's identity is `{tenantCode}:{deviceNo}`: its MQTT username
 * and client id; it may only use its own topics. Browsers read their tenant's topics.
 */

/** Device numbers appear in topics: no '/', '+', '#' or blanks. */
export const DEVICE_NO_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/** What a device sends up or receives. */
export type DeviceChannel = 'telemetry' | 'event' | 'cmd' | 'cmd/ack' | 'status';
export const UPLINK_CHANNELS = ['telemetry', 'event', 'cmd/ack', 'status'] as const;
export type UplinkChannel = (typeof UPLINK_CHANNELS)[number];

export function deviceTopic(tenantCode: string, deviceNo: string, channel: DeviceChannel): string {
  return `t/${tenantCode}/d/${deviceNo}/${channel}`;
}

/** Parses a device topic; answers undefined for anything else. */
export function parseDeviceTopic(
  topic: string,
): { tenantCode: string; deviceNo: string; channel: DeviceChannel } | undefined {
  const match =
    /^t\/([a-z][a-z0-9_-]*)\/d\/([A-Za-z0-9_.-]{1,64})\/(telemetry|event|cmd|cmd\/ack|status)$/.exec(
      topic,
    );
  if (!match) return undefined;
  return { tenantCode: match[1]!, deviceNo: match[2]!, channel: match[3] as DeviceChannel };
}

/** The MQTT username and client id of a device. */
export function deviceIdentity(tenantCode: string, deviceNo: string): string {
  return `${tenantCode}:${deviceNo}`;
}

export function parseDeviceIdentity(
  identity: string,
): { tenantCode: string; deviceNo: string } | undefined {
  const match = /^([a-z][a-z0-9_-]*):([A-Za-z0-9_.-]{1,64})$/.exec(identity);
  return match ? { tenantCode: match[1]!, deviceNo: match[2]! } : undefined;
}

/**
 * Browser client ids start with this prefix followed by the tenant code, so a browser can never
 * take over a device's client id: `web:{tenantCode}:{random}`.
 */
export const BROWSER_CLIENT_PREFIX = 'web:';

/** Server-published live topics a signed-in browser of the tenant subscribes to. */
export const liveTopics = {
  /** Every telemetry / event / status of the tenant's devices (the devices' own topics). */
  allDevices: (tenantCode: string) => `t/${tenantCode}/d/+/+`,
  /** Alarm raised / cleared / acknowledged: AlarmPush JSON. */
  alarms: (tenantCode: string) => `t/${tenantCode}/alarm`,
  /** Command status changes: CommandPush JSON. */
  commands: (tenantCode: string) => `t/${tenantCode}/command`,
  /** Device online / offline as the server saw it: PresencePush JSON. */
  presence: (tenantCode: string) => `t/${tenantCode}/presence`,
  /** A user's bell (new notification or alarm for them): `t/{tenant}/u/{userId}/notify`. */
  userNotify: (tenantCode: string, userId: string) => `t/${tenantCode}/u/${userId}/notify`,
};
