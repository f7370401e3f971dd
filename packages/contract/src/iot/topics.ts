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

/**
 * Server-published live topics a signed-in browser of the tenant subscribes to. Pushes about a
 * device carry its number as the last level, so the broker can give each browser only the
 * devices it may read (its grants and zones, as over HTTP) without opening the payload.
 */
export const liveTopics = {
  /** Every telemetry / event / status of the tenant's devices (the devices' own topics). */
  allDevices: (tenantCode: string) => `t/${tenantCode}/d/+/+`,
  /** Alarm raised / cleared / acknowledged: AlarmPush JSON (subscribe; one level per device). */
  alarms: (tenantCode: string) => `t/${tenantCode}/alarm/+`,
  /** Command status changes: CommandPush JSON (subscribe; one level per device). */
  commands: (tenantCode: string) => `t/${tenantCode}/command/+`,
  /** Device online / offline as the server saw it: PresencePush JSON (subscribe). */
  presence: (tenantCode: string) => `t/${tenantCode}/presence/+`,
  /** A user's bell (new notification or alarm for them): `t/{tenant}/u/{userId}/notify`. */
  userNotify: (tenantCode: string, userId: string) => `t/${tenantCode}/u/${userId}/notify`,
};

/** The kinds of device pushes the server publishes under `t/{tenant}/{kind}/{deviceNo}`. */
export const DEVICE_PUSH_KINDS = ['alarm', 'command', 'presence'] as const;
export type DevicePushKind = (typeof DEVICE_PUSH_KINDS)[number];

/** The device level of a push about no particular device (never a device number). */
export const NO_DEVICE_LEVEL = '$none';

/** The topic one device push is published on (a `liveTopics` filter of its kind matches it). */
export function devicePushTopic(
  tenantCode: string,
  kind: DevicePushKind,
  deviceNo: string,
): string {
  return `t/${tenantCode}/${kind}/${deviceNo}`;
}

/**
 * What a live topic of a tenant is about, for the broker's per-browser check: a device's own
 * channel or a push about one device (with its number), a user's bell, or anything else.
 */
export type LiveTopicSubject =
  | { kind: 'device'; deviceNo: string; stream: 'data' | 'command' | 'alarm' }
  | { kind: 'user'; userId: string }
  | { kind: 'other' };

/** Classifies a topic (already known to be `t/{tenant}/...`) by what it tells about. */
export function liveTopicSubject(topic: string): LiveTopicSubject {
  const levels = topic.split('/');
  const area = levels[2];
  if (area === 'u') return { kind: 'user', userId: levels[3] ?? '' };
  if (area === 'd') {
    const channel = levels.slice(4).join('/');
    const stream = channel === 'cmd' || channel === 'cmd/ack' ? 'command' : 'data';
    return { kind: 'device', deviceNo: levels[3] ?? '', stream };
  }
  if (area === 'alarm') return { kind: 'device', deviceNo: levels[3] ?? '', stream: 'alarm' };
  if (area === 'command') return { kind: 'device', deviceNo: levels[3] ?? '', stream: 'command' };
  if (area === 'presence') return { kind: 'device', deviceNo: levels[3] ?? '', stream: 'data' };
  return { kind: 'other' };
}
