import type { FastifyBaseLogger } from 'fastify';
import type { IPublishPacket, Packet } from 'mqtt-packet';
import { ConnectRefused, SessionSocket } from './mqtt-session-socket';

/** MQTT 5 reason codes this consumer sends or reads. */
const SESSION_TAKEN_OVER = 0x8e;
const TOPIC_ALIAS_INVALID = 0x94;
const PROTOCOL_ERROR = 0x82;
/** After a refused CONNECT (credentials, ACL) the next try waits this long, not the usual delay. */
const REFUSED_RETRY_MS = 5000;
/** Bytes of payload being stored at once before reading pauses (QoS 0 floods, large messages). */
const MAX_PENDING_BYTES = 32 * 1024 * 1024;

export interface WindowedConsumerOptions {
  url: string;
  clientId: string;
  username?: string;
  password?: string;
  /** 0: clean start, the session ends with the connection; else it outlives it this long (s). */
  sessionExpirySeconds: number;
  /** Unacknowledged QoS 1 messages the broker may send this connection at once (receiveMaximum). */
  window: number;
  maximumPacketSize: number;
  filters: string[];
  reconnectMs: number;
  /**
   * On a take-over by another connection under the same client id (DISCONNECT 0x8E): 'reconnect'
   * (this node's own session: take it back) or 'release' (a session held for someone else).
   */
  onTakeOver: 'reconnect' | 'release';
  log: FastifyBaseLogger;
  /**
   * Stores one message: resolves once it is stored, when its PUBACK may go. Must not reject
   * (retrying is the caller's); a rejection drops the connection, and the broker sends again.
   */
  deliver(topic: string, payload: Buffer, retain: boolean): Promise<void>;
  /** Asked on every connection: false while leaving the share group. */
  shouldSubscribe(): boolean;
}

/** A QoS 1 message of the current connection, waiting for its turn to be acknowledged. */
interface Unacknowledged {
  messageId: number;
  stored: boolean;
}

/**
 * A consumer of the shared uplink subscriptions on one persistent MQTT 5 session, built on the
 * packet layer (mqtt-session-socket.ts) so that many QoS 1 messages are in flight at once: each
 * is handed to `deliver` as it arrives (the ingest service batches concurrent calls into one
 * insert) and acknowledged only once stored. mqtt.js reads a connection's next packet only after
 * the previous one's acknowledgement was written, one reading at a time per connection.
 *
 * - Acknowledgements go in the order the messages arrived (MQTT 5 §4.6 asks it of QoS 1): the
 *   stored prefix is acknowledged, so a slow store holds back later acknowledgements but not later
 *   stores.
 * - Bounded: the broker sends at most `window` unacknowledged QoS 1 messages (receiveMaximum),
 *   and reading pauses while `window` deliveries (or MAX_PENDING_BYTES of them) are unfinished,
 *   so a QoS 0 flood backs up into TCP and the broker's queues, not this process.
 * - It subscribes on every connection (Mosquitto 2.0 does not restore a persistent session's
 *   shared subscriptions after its restart) and reconnects after `reconnectMs` when the
 *   connection is lost. Stores of a lost connection go on, but their acknowledgements are not
 *   sent: the broker sends those messages again on the next connection.
 */
export class WindowedConsumer {
  private link: SessionSocket | undefined;
  private subscribedNow = false;
  /** Deliveries not finished, of every connection of this consumer. */
  private pending = 0;
  private pendingBytes = 0;
  /** QoS 1 messages of the current connection in arrival order; `head` is the next to ack. */
  private queue: Unacknowledged[] = [];
  private head = 0;
  private packetId = 0;
  private readonly waiting = new Map<number, (packet: Packet) => void>();
  private stopped = false;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private failing = false;
  private firstSubscription!: () => void;
  /** Resolves once the shared subscriptions were answered the first time (granted or refused). */
  readonly subscribedOnce = new Promise<void>((resolve) => (this.firstSubscription = resolve));
  /** Called when a 'release' consumer was taken over and let its session go. */
  onReleased: (() => void) | undefined;

  constructor(private readonly options: WindowedConsumerOptions) {}

  start(): void {
    void this.connect();
  }

  get connected(): boolean {
    return this.link !== undefined;
  }

  /** Connected, and the shared subscriptions are in place on this connection. */
  get subscribed(): boolean {
    return this.link !== undefined && this.subscribedNow;
  }

  /** Deliveries handed over and not finished (stored or given up). */
  get inFlight(): number {
    return this.pending;
  }

  /** Stops the shared subscriptions on this connection (leaving): nothing new is queued for it. */
  async unsubscribe(): Promise<void> {
    const link = this.link;
    if (!link) throw new Error(`${this.options.clientId} is not connected`);
    const messageId = this.nextPacketId();
    const answer = this.answer(messageId);
    link.send({ cmd: 'unsubscribe', messageId, unsubscriptions: this.options.filters });
    await answer;
    this.subscribedNow = false;
  }

  /**
   * Ends the connection for good: DISCONNECT (normal), with session expiry 0 when `endSession`
   * (the broker forgets the session and what it holds). Unacknowledged messages stay the
   * broker's otherwise, for the session's next connection.
   */
  async stop(options: { endSession: boolean } = { endSession: false }): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    const link = this.link;
    if (!link) return;
    await link.end({
      cmd: 'disconnect',
      reasonCode: 0,
      ...(options.endSession && { properties: { sessionExpiryInterval: 0 } }),
    });
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const o = this.options;
    try {
      const { link } = await SessionSocket.connect(
        {
          url: o.url,
          clientId: o.clientId,
          ...(o.username !== undefined && { username: o.username }),
          ...(o.password !== undefined && { password: o.password }),
          clean: o.sessionExpirySeconds === 0,
          sessionExpiryInterval: o.sessionExpirySeconds,
          receiveMaximum: o.window,
          maximumPacketSize: o.maximumPacketSize,
          keepaliveSeconds: 60,
          connectTimeoutMs: 10_000,
        },
        {
          open: (opened) => this.onOpen(opened),
          packet: (packet, from) => this.onPacket(packet, from),
          close: (from, reason) => this.onClose(from, reason),
        },
      );
      if (this.stopped) return void link.destroy();
      if (o.shouldSubscribe()) await this.subscribe(link);
    } catch (error) {
      if (this.stopped) return;
      // Said once per outage, not on every try.
      if (!this.failing)
        o.log.warn({ err: error, clientId: o.clientId }, 'external MQTT broker: connect failed');
      this.failing = true;
      this.scheduleReconnect(error instanceof ConnectRefused ? REFUSED_RETRY_MS : o.reconnectMs);
    }
  }

  /** At CONNACK, before the messages the broker sends right after it (its queue for us). */
  private onOpen(link: SessionSocket): void {
    this.link = link;
    this.queue = [];
    this.head = 0;
    this.failing = false;
    this.applyBackPressure();
  }

  private async subscribe(link: SessionSocket): Promise<void> {
    const messageId = this.nextPacketId();
    const answer = this.answer(messageId);
    link.send({
      cmd: 'subscribe',
      messageId,
      subscriptions: this.options.filters.map((topic) => ({ topic, qos: 1 as const })),
    });
    try {
      const suback = await answer;
      const granted = (suback.cmd === 'suback' ? suback.granted : []) as number[];
      const refused = this.options.filters.filter((_, i) => (granted[i] ?? 0x80) >= 0x80);
      // Refused (the broker's ACL): said loudly and in /api/health, but the server starts.
      if (refused.length > 0)
        this.options.log.error(
          { refused, clientId: this.options.clientId },
          'external MQTT broker refused the uplink subscriptions',
        );
      else if (link === this.link) this.subscribedNow = true;
      this.firstSubscription();
    } catch (error) {
      this.options.log.warn({ err: error }, 'uplink subscription failed: retried on reconnect');
    }
  }

  private onPacket(packet: Packet, link: SessionSocket): void {
    switch (packet.cmd) {
      case 'publish':
        return this.onPublish(packet, link);
      case 'suback':
      case 'unsuback':
        this.waiting.get(packet.messageId!)?.(packet);
        this.waiting.delete(packet.messageId!);
        return;
      case 'disconnect':
        // The broker closes the socket next; onClose decides what follows.
        return;
      default:
        // Nothing else comes to a subscriber that publishes nothing (no PUBREL: QoS ≤ 1).
        link.send({ cmd: 'disconnect', reasonCode: PROTOCOL_ERROR });
        link.destroy(new Error(`unexpected MQTT packet ${packet.cmd}`));
    }
  }

  private onPublish(packet: IPublishPacket, link: SessionSocket): void {
    if (packet.properties?.topicAlias !== undefined || packet.qos === 2) {
      // We allow no topic alias (topicAliasMaximum 0) and subscribe at QoS 1.
      link.send({
        cmd: 'disconnect',
        reasonCode: packet.qos === 2 ? PROTOCOL_ERROR : TOPIC_ALIAS_INVALID,
      });
      return void link.destroy(new Error('MQTT PUBLISH with a topic alias or QoS 2'));
    }
    const payload =
      typeof packet.payload === 'string' ? Buffer.from(packet.payload) : packet.payload;
    const entry: Unacknowledged | undefined =
      packet.qos === 1 ? { messageId: packet.messageId!, stored: false } : undefined;
    if (entry) this.queue.push(entry);
    this.pending += 1;
    this.pendingBytes += payload.length;
    this.applyBackPressure();
    this.options.deliver(packet.topic, payload, packet.retain).then(
      () => {
        this.settled(payload.length);
        if (!entry) return;
        entry.stored = true;
        // A message of a lost connection: the broker sends it again on the next one.
        if (link === this.link) this.acknowledgeStoredPrefix(link);
      },
      (error: unknown) => {
        this.settled(payload.length);
        this.options.log.error({ err: error, topic: packet.topic }, 'uplink delivery failed');
        if (link === this.link) link.destroy();
      },
    );
  }

  private settled(bytes: number): void {
    this.pending -= 1;
    this.pendingBytes -= bytes;
    this.applyBackPressure();
  }

  /** PUBACKs for the stored messages at the head of the arrival order, in one write. */
  private acknowledgeStoredPrefix(link: SessionSocket): void {
    const queue = this.queue;
    let head = this.head;
    if (!queue[head]?.stored) return;
    const acks: Packet[] = [];
    while (head < queue.length && queue[head]!.stored) {
      acks.push({ cmd: 'puback', messageId: queue[head]!.messageId, reasonCode: 0 });
      head += 1;
    }
    link.sendAll(acks);
    if (head === queue.length) {
      this.queue = [];
      this.head = 0;
    } else if (head > 1024 && head * 2 > queue.length) {
      this.queue = queue.slice(head);
      this.head = 0;
    } else this.head = head;
  }

  /** Reading pauses while `window` deliveries or MAX_PENDING_BYTES are unfinished. */
  private applyBackPressure(): void {
    const link = this.link;
    if (!link) return;
    if (this.pending >= this.options.window || this.pendingBytes >= MAX_PENDING_BYTES) link.pause();
    else link.resume();
  }

  private onClose(link: SessionSocket, reason: { disconnectReason?: number; error?: Error }) {
    if (link !== this.link) return;
    this.link = undefined;
    this.subscribedNow = false;
    this.queue = [];
    this.head = 0;
    for (const reject of this.waiting.values())
      reject({ cmd: 'disconnect', reasonCode: PROTOCOL_ERROR });
    this.waiting.clear();
    if (this.stopped) return;
    const o = this.options;
    if (reason.disconnectReason === SESSION_TAKEN_OVER) {
      if (o.onTakeOver === 'release') {
        this.stopped = true;
        o.log.info({ clientId: o.clientId }, 'consumer session taken back by its owner');
        return this.onReleased?.();
      }
      // Another connection under this node's client id: a second node with the same MQTT_NODE_ID
      // (a mistake), or a peer that held the session while this node seemed lost: taken back.
      o.log.warn(
        { clientId: o.clientId },
        'consumer session taken over by another connection under the same client id: taking it back (is MQTT_NODE_ID unique?)',
      );
    } else
      o.log.warn(
        { err: reason.error, clientId: o.clientId, reason: reason.disconnectReason },
        'external MQTT broker connection lost: reconnecting',
      );
    this.scheduleReconnect(o.reconnectMs);
  }

  private scheduleReconnect(ms: number): void {
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => void this.connect(), ms);
    this.reconnectTimer.unref();
  }

  private nextPacketId(): number {
    this.packetId = (this.packetId % 0xffff) + 1;
    return this.packetId;
  }

  /** The SUBACK or UNSUBACK to `messageId`; rejects when the connection goes first. */
  private answer(messageId: number): Promise<Packet> {
    return new Promise((resolve, reject) =>
      this.waiting.set(messageId, (packet) =>
        packet.cmd === 'disconnect' ? reject(new Error('connection lost')) : resolve(packet),
      ),
    );
  }
}
