import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import mqtt, { type MqttClient } from 'mqtt';
import type { Packet } from 'mqtt-packet';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mosquittoAvailable } from '@shuili/test-support/mosquitto-peer';
import {
  startPrivateMosquitto,
  type PrivateMosquitto,
} from '@shuili/test-support/private-mosquitto';
import { startPacketRecordingProxy, type PacketRecordingProxy } from './packet-recording-proxy';
import { WindowedConsumer, type WindowedConsumerOptions } from './windowed-consumer';

const available = await mosquittoAvailable();

const quiet = { info: () => {}, warn: () => {}, error: () => {} } as unknown as FastifyBaseLogger;

const waitFor = async (what: string, condition: () => boolean, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

/**
 * What the consumer sent the broker, seen on the wire: its PUBACKs must come in the order the
 * PUBLISHes arrived on their connection, and only for messages whose store had resolved.
 */
class AckLedger {
  /** Sequence numbers acknowledged, in order. */
  readonly acknowledged: number[] = [];
  readonly violations: string[] = [];
  /** Sequence numbers whose store resolved. */
  readonly stored = new Set<number>();
  /** This connection's QoS 1 PUBLISHes not acknowledged yet, in arrival order. */
  private unacknowledged: Array<{ messageId: number; seq: number }> = [];

  toClient = (packet: Packet) => {
    if (packet.cmd === 'publish' && packet.qos === 1)
      this.unacknowledged.push({ messageId: packet.messageId!, seq: Number(packet.payload) });
  };

  toBroker = (packet: Packet) => {
    // A new connection: what the last one left unacknowledged comes again on this one.
    if (packet.cmd === 'connect') this.unacknowledged = [];
    if (packet.cmd !== 'puback') return;
    const first = this.unacknowledged.shift();
    if (!first || first.messageId !== packet.messageId)
      this.violations.push(
        `PUBACK ${packet.messageId} out of order (expected ${first?.messageId})`,
      );
    else if (!this.stored.has(first.seq))
      this.violations.push(`PUBACK for ${first.seq} before it was stored`);
    else this.acknowledged.push(first.seq);
  };
}

/** A store that holds every delivery until the test lets it go. */
class HeldStore {
  readonly held: Array<{ seq: number; release(): void }> = [];
  /** How many times each sequence number was delivered. */
  readonly deliveries = new Map<number, number>();
  inHand = 0;
  maxInHand = 0;

  constructor(private readonly ledger: AckLedger) {}

  deliver = (_topic: string, payload: Buffer): Promise<void> => {
    const seq = Number(payload.toString());
    this.deliveries.set(seq, (this.deliveries.get(seq) ?? 0) + 1);
    this.inHand += 1;
    this.maxInHand = Math.max(this.maxInHand, this.inHand);
    return new Promise((resolve) =>
      this.held.push({
        seq,
        release: () => {
          this.ledger.stored.add(seq);
          this.inHand -= 1;
          resolve();
        },
      }),
    );
  };

  /** Lets every held store finish, the latest first (acknowledgements must still go in order). */
  releaseAll(): void {
    for (const store of this.held.splice(0).reverse()) store.release();
  }
}

describe.skipIf(!available)('windowed consumer on a real Mosquitto', () => {
  let broker: PrivateMosquitto;
  let publisher: MqttClient;
  const cleanups: Array<() => Promise<unknown>> = [];
  beforeAll(async () => {
    broker = await startPrivateMosquitto();
    publisher = await mqtt.connectAsync(broker.url, { protocolVersion: 5, reconnectPeriod: 250 });
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
  });
  afterAll(async () => {
    await publisher?.endAsync(true);
    await broker?.destroy();
  });

  /** A consumer of a share group of its own, through a recording proxy. */
  const startConsumer = async (
    ledger: AckLedger,
    deliver: WindowedConsumerOptions['deliver'],
    window: number,
  ) => {
    const group = `g${crypto.randomBytes(4).toString('hex')}`;
    const proxy: PacketRecordingProxy = await startPacketRecordingProxy(broker.url, ledger);
    const consumer = new WindowedConsumer({
      url: proxy.url,
      clientId: `test-${group}`,
      sessionExpirySeconds: 60,
      window,
      maximumPacketSize: 1 << 20,
      filters: [`$share/${group}/w/${group}/+`],
      reconnectMs: 100,
      onTakeOver: 'reconnect',
      log: quiet,
      deliver,
      shouldSubscribe: () => true,
    });
    consumer.start();
    cleanups.push(() => proxy.close());
    cleanups.push(() => consumer.stop({ endSession: true }));
    await consumer.subscribedOnce;
    return { consumer, topic: `w/${group}/x` };
  };

  const publish = (topic: string, from: number, count: number, qos: 0 | 1) =>
    Promise.all(
      Array.from({ length: count }, (_, i) =>
        publisher.publishAsync(topic, String(from + i), { qos }),
      ),
    );

  it('keeps a window of QoS 1 messages in flight and acknowledges each once stored, in arrival order', async () => {
    const WINDOW = 20;
    const COUNT = 100;
    const ledger = new AckLedger();
    const store = new HeldStore(ledger);
    const { consumer, topic } = await startConsumer(ledger, store.deliver, WINDOW);
    await publish(topic, 0, COUNT, 1);

    // A whole window in hand before any store finished: many messages in flight on one
    // connection (mqtt.js would hand over the next only after the first's acknowledgement).
    await waitFor('a window of messages', () => store.held.length === WINDOW);
    expect(ledger.acknowledged).toEqual([]);
    expect(consumer.inFlight).toBe(WINDOW);

    // Stores finish in reverse order: nothing is acknowledged ahead of an earlier arrival.
    while (ledger.acknowledged.length < COUNT) {
      store.releaseAll();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(ledger.violations).toEqual([]);
    expect([...ledger.acknowledged].sort((a, b) => a - b)).toEqual(
      Array.from({ length: COUNT }, (_, i) => i),
    );
    // The broker honoured receiveMaximum: never more than the window in hand.
    expect(store.maxInHand).toBe(WINDOW);
  });

  it('stops reading while a window of QoS 0 messages is being stored', async () => {
    const WINDOW = 20;
    const COUNT = 3000;
    const ledger = new AckLedger();
    const store = new HeldStore(ledger);
    const { topic } = await startConsumer(ledger, store.deliver, WINDOW);
    await publish(topic, 0, COUNT, 0);
    await waitFor('a window of messages', () => store.held.length === WINDOW);
    // Everything published is on its way (a QoS 1 fence behind it on the same connection) ...
    await publisher.publishAsync(`${topic}-fence`, 'fence', { qos: 1 });
    // ... and still only a window in hand: the rest waits in TCP and the broker, not here.
    expect(store.inHand).toBe(WINDOW);
    while (store.deliveries.size < COUNT) {
      store.releaseAll();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    store.releaseAll();
    expect(store.maxInHand).toBe(WINDOW);
    expect(ledger.acknowledged).toEqual([]);
  });

  it('after a broker restart, what was not acknowledged is delivered again and then acknowledged', async () => {
    const WINDOW = 10;
    const COUNT = 30;
    const ledger = new AckLedger();
    const store = new HeldStore(ledger);
    const { consumer, topic } = await startConsumer(ledger, store.deliver, WINDOW);
    await publish(topic, 0, COUNT, 1);
    await waitFor('a window of messages', () => store.held.length === WINDOW);
    const heldAtStop = store.held.map((held) => held.seq);

    await broker.stop('SIGTERM');
    await waitFor('the consumer to see the broker gone', () => !consumer.connected);
    // Stored while the connection is gone: acknowledged on none (the next one gets them again).
    store.releaseAll();
    await broker.start();
    // The broker sends the session's messages first: stores go on while it subscribes again.
    while (new Set(ledger.acknowledged).size < COUNT || !consumer.subscribed) {
      store.releaseAll();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(ledger.violations).toEqual([]);
    // Held, unacknowledged at the restart: the broker's persistent session sent them again.
    for (const seq of heldAtStop) expect(store.deliveries.get(seq)).toBeGreaterThanOrEqual(2);
    expect(store.maxInHand).toBeLessThanOrEqual(WINDOW);
  });
});
