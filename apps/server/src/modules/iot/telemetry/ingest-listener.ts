import type { CommandAck } from '@shuili/contract';

/** The device an uplink came from, as the directory resolved its authenticated identity. */
export interface DeviceRef {
  tenantId: string;
  tenantCode: string;
  deviceId: string;
  deviceNo: string;
  productId: string | null;
}

/** One stored reading: `value` for numbers, booleans (0/1) and enums, `textValue` for strings. */
export interface TelemetryPoint extends DeviceRef {
  key: string;
  ts: Date;
  value: number | null;
  textValue: string | null;
}

export interface DeviceEventMessage {
  device: DeviceRef;
  key: string;
  params: Record<string, unknown>;
  ts: Date;
}

export interface DeviceAckMessage {
  device: DeviceRef;
  ack: CommandAck;
  receivedAt: Date;
}

export interface DevicePresenceMessage {
  device: DeviceRef;
  online: boolean;
  at: Date;
}

/**
 * What other IoT services (commands, alarms, live pushes) hear from ingestion. Every method is
 * optional. `onTelemetry` runs after the points are committed (one call per flush, points of
 * many devices and tenants; a failure is logged, the points stay stored). `onEvent` and `onAck`
 * are awaited before the device's QoS 1 acknowledgement: if one throws, the device resends.
 * `onPresence` is called when the broker reports the device online (once per connection, after
 * its cmd subscription is in place, so pending commands can go down), on its own status message,
 * and when it goes offline; a reading alone marks the device online in iot_device without it.
 */
export interface IngestListener {
  onTelemetry?(points: TelemetryPoint[]): void | Promise<void>;
  onEvent?(event: DeviceEventMessage): void | Promise<void>;
  onAck?(ack: DeviceAckMessage): void | Promise<void>;
  onPresence?(presence: DevicePresenceMessage): void | Promise<void>;
}
