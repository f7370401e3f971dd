import type { CommandAck } from '@shuili/contract';
import type { StoredRow } from './ingest.repo';

/** The device an uplink came from, as the directory resolved its authenticated identity. */
export interface DeviceRef {
  tenantId: string;
  tenantCode: string;
  deviceId: string;
  deviceNo: string;
  productId: string | null;
}

/**
 * The readings of one device that one uplink stored, handed over grouped by device rather than as
 * one object per reading: under load building a point per reading (device fields copied into
 * each) cost 9 % of the server's CPU. `value` is set for numbers, booleans (0/1) and enums,
 * `textValue` for strings. Listeners must not change the readings (they are the stored rows).
 */
export interface DeviceTelemetry {
  device: DeviceRef;
  readings: readonly StoredRow[];
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
 * optional. `onTelemetry` runs after the readings are committed (one call per flush, readings of
 * many devices and tenants, in the order they came; a failure is logged, they stay stored). `onEvent` and `onAck`
 * are awaited before the device's QoS 1 acknowledgement: if one throws, the device resends.
 * `onPresence` is called when the broker reports the device online (once per connection, after
 * its cmd subscription is in place, so pending commands can go down), on its own status message,
 * and when it goes offline; a reading alone marks the device online in iot_device without it.
 */
export interface IngestListener {
  onTelemetry?(batches: DeviceTelemetry[]): void | Promise<void>;
  onEvent?(event: DeviceEventMessage): void | Promise<void>;
  onAck?(ack: DeviceAckMessage): void | Promise<void>;
  onPresence?(presence: DevicePresenceMessage): void | Promise<void>;
}
