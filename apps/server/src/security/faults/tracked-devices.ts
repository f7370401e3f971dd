import { deviceTopic } from '@shuili/contract';
import mqtt, { type MqttClient } from 'mqtt';
import type { BenchDevice } from '@shuili/test-support/ingest-data';

/** MQTT 5 PUBACK reason: accepted, but nobody subscribes to the topic. */
const NO_MATCHING_SUBSCRIBERS = 0x10;

/** A reading as the database keeps it: the device and the instant it carried. */
export const readingKey = (deviceNo: string, ts: number) => `${deviceNo}@${ts}`;

interface DeviceState {
  device: BenchDevice;
  client: MqttClient;
  /** The next reading's sequence number; its instant is `start + seq` ms. */
  next: number;
  /** Readings published and not acknowledged yet (sequence numbers). */
  pending: Set<number>;
  /** Packet id → sequence number of the PUBLISH that last went out with that id. */
  byMessageId: Map<number, number>;
  /** Readings the broker took without a subscriber (PUBACK 0x10): published again first. */
  again: number[];
}

export interface TrackedDevicesOptions {
  /** Readings a device keeps in flight (published, not acknowledged). */
  window?: number;
  /** Reconnect after a lost connection (ms); 0: never (the server is gone for good). */
  reconnectPeriod?: number;
  /**
   * At most one new reading per device this often (ms); unset: as fast as acknowledgements
   * come. An external broker acknowledges on receipt, so its devices need a pace.
   */
  intervalMs?: number;
  /**
   * MQTT 5 devices that treat PUBACK reason 0x10 ("no matching subscribers": the broker took the
   * reading and had nobody to give it to) as not delivered, and publish that reading again.
   * docs/iot.md asks this of devices on an external broker.
   */
  resendWithoutSubscribers?: boolean;
}

/**
 * Devices publishing QoS 1 telemetry as fast as their acknowledgements allow, recording every
 * PUBACK they receive: the PUBLISH packets going out are matched to their packet ids, and each
 * PUBACK's packet id names the reading it acknowledged. A reading acknowledged is a promise that
 * it is stored, which the fault tests check after the fault.
 */
export class TrackedDevices {
  /** readingKey of every acknowledged reading. */
  readonly acknowledged = new Set<string>();
  /** readingKey → when its PUBACK arrived (Date.now()). */
  readonly acknowledgedAt = new Map<string, number>();
  /** readingKey of every reading that was published at least once. */
  readonly published = new Set<string>();
  /** Connections lost (the server or broker went away, or refused to store). */
  disconnects = 0;
  /** PUBACKs with reason 0x10 (see resendWithoutSubscribers). */
  withoutSubscribers = 0;
  private readonly states: DeviceState[] = [];
  private running = false;
  private readonly start = Date.now();
  private pacer: NodeJS.Timeout | undefined;

  constructor(
    private readonly url: string,
    private readonly devices: BenchDevice[],
    private readonly options: TrackedDevicesOptions = {},
  ) {}

  /** Connects every device (each must get in once) and starts publishing. */
  async run(): Promise<void> {
    this.running = true;
    await Promise.all(this.devices.map((device) => this.connect(device)));
    if (this.options.intervalMs) {
      this.pacer = setInterval(() => {
        for (const state of this.states) this.publishOne(state);
      }, this.options.intervalMs);
    } else for (const state of this.states) this.topUp(state);
  }

  /** The newest acknowledged reading of each device (readingKey). */
  lastAcknowledged(): string[] {
    return this.states.map((state) => {
      let last = -1;
      for (let seq = state.next - 1; seq >= 0 && last < 0; seq -= 1)
        if (this.acknowledged.has(readingKey(state.device.deviceNo, this.start + seq))) last = seq;
      return readingKey(state.device.deviceNo, this.start + last);
    });
  }

  /** Stops publishing new readings (those in flight are still resent and acknowledged). */
  pause(): void {
    this.running = false;
    clearInterval(this.pacer);
  }

  /** Readings in flight now, over every device. */
  get inFlight(): number {
    return this.states.reduce((sum, state) => sum + state.pending.size, 0);
  }

  get connected(): number {
    return this.states.filter((state) => state.client.connected).length;
  }

  async close(): Promise<void> {
    this.pause();
    await Promise.all(this.states.map((state) => state.client.endAsync(true).catch(() => {})));
  }

  private connect(device: BenchDevice): Promise<void> {
    const client = mqtt.connect(this.url, {
      ...(this.options.resendWithoutSubscribers && { protocolVersion: 5 as const }),
      clientId: device.identity,
      username: device.identity,
      password: device.secret,
      clean: true,
      keepalive: 30,
      connectTimeout: 10_000,
      reconnectPeriod: this.options.reconnectPeriod ?? 0,
      // "Server unavailable" while the database is away is retried, as devices do: mqtt.js
      // otherwise stops reconnecting after a refused CONNACK, and the load would stop for good.
      reconnectOnConnackError: true,
    });
    const state: DeviceState = {
      device,
      client,
      next: 0,
      pending: new Set(),
      byMessageId: new Map(),
      again: [],
    };
    this.states.push(state);
    client.on('packetsend', (packet) => {
      if (packet.cmd !== 'publish' || packet.messageId === undefined) return;
      const seq = Number(/"seq":(\d+)/.exec(String(packet.payload))?.[1]);
      state.byMessageId.set(packet.messageId, seq);
    });
    client.on('packetreceive', (packet) => {
      if (packet.cmd !== 'puback' || packet.messageId === undefined) return;
      const seq = state.byMessageId.get(packet.messageId);
      if (seq === undefined) return;
      state.byMessageId.delete(packet.messageId);
      state.pending.delete(seq);
      if (packet.reasonCode === NO_MATCHING_SUBSCRIBERS) {
        this.withoutSubscribers += 1;
        if (this.options.resendWithoutSubscribers) {
          state.again.push(seq);
          return this.topUp(state);
        }
      }
      const key = readingKey(device.deviceNo, this.start + seq);
      this.acknowledged.add(key);
      this.acknowledgedAt.set(key, Date.now());
      this.topUp(state);
    });
    client.on('connect', () => this.topUp(state));
    client.on('close', () => (this.disconnects += 1));
    // Refusals and lost connections are the fault under test: counted, not thrown.
    client.on('error', () => {});
    return new Promise((resolve, reject) => {
      client.once('connect', () => resolve());
      client.once('error', reject);
    });
  }

  private topUp(state: DeviceState): void {
    if (this.options.intervalMs) return;
    while (this.publishOne(state));
  }

  /** Publishes the device's next reading if it is connected and its window has room. */
  private publishOne(state: DeviceState): boolean {
    const window = this.options.window ?? 4;
    if (!this.running || !state.client.connected || state.pending.size >= window) return false;
    {
      const seq = state.again.shift() ?? state.next++;
      const ts = this.start + seq;
      state.pending.add(seq);
      this.published.add(readingKey(state.device.deviceNo, ts));
      const payload = JSON.stringify({ ts, seq, values: { waterLevel: 1 + (seq % 50) } });
      // The callback is not the record (PUBACKs are, above): an error here is a lost connection.
      state.client.publish(
        deviceTopic('demo', state.device.deviceNo, 'telemetry'),
        payload,
        { qos: 1 },
        () => {},
      );
    }
    return true;
  }
}
