import {
  MAX_PAYLOAD_BYTES,
  deviceIdentity,
  deviceTopic,
  parseDeviceTopic,
  statusPayloadSchema,
  type UplinkChannel,
} from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import { connect, connectAsync, type IClientOptions, type MqttClient } from 'mqtt';
import type { Config } from '../config';
import type {
  DeviceTransport,
  DeviceTransportDeps,
  EndedDeviceIdentity,
  Presence,
  TransportEndpoints,
  TransportState,
  Uplink,
} from './device-transport';
import { consumerAddress } from './consumer-url';
import { MqttAuthenticator } from './mqtt-authenticator';
import { MQTT_WS_PATH, MqttBroker } from './mqtt-broker';
import { MQTT_LIMITS } from './mqtt-limits';
import { consumerClientId, SessionAdoption } from './session-adoption';
import { WindowedConsumer } from './windowed-consumer';

/** Every node joins one group per filter: the external broker gives each message to one node. */
const uplinkFilters = (group: string) =>
  ['telemetry', 'event', 'cmd/ack', 'status'].map(
    (channel) => `$share/${group}/t/+/d/+/${channel}`,
  );
/**
 * Each node's state on the broker, retained: 'up' while its watcher is connected, 'gone' (its will)
 * once that connection drops without a DISCONNECT. Outside the devices' `t/` topics, so only the
 * server's identity may publish there (external-auth.routes.ts; docs/iot.md for other brokers).
 */
const NODE_STATE_PREFIX = 'shuili/nodes/';
const NODE_STATES = `${NODE_STATE_PREFIX}+`;
const nodeStateTopic = (mqttNodeId: string) => `${NODE_STATE_PREFIX}${mqttNodeId}`;
const nodeState = (state: 'up' | 'gone') => JSON.stringify({ state });
/** A stopping node clears its state before it says goodbye; no longer than this. */
const STATE_CLEAR_MS = 2_000;
/** How long a start waits for the consumers' first subscriptions before it goes on without. */
const FIRST_SUBSCRIPTION_WAIT_MS = 10_000;
/** A failed store is tried again after 1, 2, 4 ... up to this many ms. */
const MAX_RETRY_MS = 30_000;
/** Consumers come back quickly: until they have subscribed, the broker has nobody to queue for. */
const CONSUMER_RECONNECT_MS = 500;
/** Leaving (MQTT_LEAVE_ON_STOP): done when nothing is being stored and nothing came for this long. */
const LEAVE_QUIET_MS = 1000;
/** ... or given up after this long (main.ts exits after 25 s), keeping the sessions. */
const LEAVE_MAX_MS = 10_000;
/**
 * The largest packet the consumers take: a payload of MAX_PAYLOAD_BYTES and a topic of any
 * length. The broker drops a larger message instead of sending it (MQTT 5 §3.1.2.11.4).
 */
const MAX_CONSUMED_PACKET_BYTES = MAX_PAYLOAD_BYTES + 0x10000 + 1024;

/**
 * Devices on an external broker (Mosquitto, EMQX: `MQTT_URL`), consumed through MQTT 5 shared
 * subscriptions so that several server nodes split the load; each message is acknowledged only
 * once it is stored, with a window of messages in flight per connection (windowed-consumer.ts).
 *
 * The consumers' sessions are persistent (MQTT_SESSION_EXPIRY_SECONDS) under client ids stable
 * across restarts (MQTT_NODE_ID): a message the broker has taken for this node waits in its
 * session while the node or the broker restarts, instead of dying with a clean session. See
 * docs/iot.md "External broker durability" for what the broker must be configured with.
 *
 * Browsers still connect to /mqtt on this node: a local aedes serves them, read-only. Live data
 * reaches them through a relay: for every tenant with a browser on this node, a plain (not
 * shared) subscription to `t/{tenant}/#` on the external broker copies that tenant's messages
 * into the local aedes. publishLive publishes on the external broker, so a push from any node
 * reaches the browsers of every node through the same relay.
 *
 * Device authentication and the ACL are the external broker's to enforce, through its HTTP auth
 * hooks pointed at /api/iot/mqtt/... (external-auth.routes.ts: the same rules as the embedded
 * broker). This node connects as MQTT_USERNAME; to end a revoked device's session it takes over
 * the device's client id (see {@link disconnectDevice}).
 */
export class ExternalTransport implements DeviceTransport {
  private readonly broker: MqttBroker;
  private readonly consumers: WindowedConsumer[] = [];
  /** Lost peers' consumer sessions, consumed here until they return. */
  private readonly adoption: SessionAdoption;
  /** Uplinks handed to the store and not acknowledged yet, over every consumer. */
  private storing = 0;
  /** Uplinks stored since the start, over every consumer (for /api/health). */
  private stored = 0;
  private lastDeliveryAt = 0;
  /** Set while leaving the share group for good: no subscription any more. */
  private leaving = false;
  /** Commands and live pushes go out here; the relay subscriptions live here too. */
  private relay: MqttClient | undefined;
  /** Follows every device's retained status, for isConnected on any node. */
  private watcher: MqttClient | undefined;
  private readonly online = new Map<string, boolean>();
  private readonly relayed = new Set<string>();
  private uplinkHandler: ((uplink: Uplink) => Promise<void>) | undefined;
  private presenceHandler: ((presence: Presence) => void | Promise<void>) | undefined;
  private stopping = false;
  /** The second take-over of each identity that ended (one per identity, however often told). */
  private readonly kicks = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly config: Config,
    private readonly app: FastifyInstance,
    deps: DeviceTransportDeps,
  ) {
    this.broker = new MqttBroker({
      authenticator: new MqttAuthenticator(deps),
      log: app.log,
      acceptDevices: false,
      browsers: deps.browsers,
    });
    this.broker.onBrowsersChanged = () => void this.syncRelay();
    this.adoption = new SessionAdoption({
      db: deps.db,
      self: config.mqttNodeId,
      consumer: (clientId) => this.consumer(clientId, 'release'),
      log: app.log,
    });
  }

  onUplink(handler: (uplink: Uplink) => Promise<void>): void {
    this.uplinkHandler = handler;
  }

  onPresence(handler: (presence: Presence) => void | Promise<void>): void {
    this.presenceHandler = handler;
  }

  async publishToDevice(
    tenantCode: string,
    deviceNo: string,
    payload: Buffer | string,
    qos: 0 | 1,
  ): Promise<void> {
    await this.relay!.publishAsync(deviceTopic(tenantCode, deviceNo, 'cmd'), Buffer.from(payload), {
      qos,
    });
  }

  async publishLive(topic: string, payload: Buffer | string): Promise<void> {
    await this.relay!.publishAsync(topic, Buffer.from(payload), { qos: 0 });
  }

  isConnected(tenantCode: string, deviceNo: string): boolean {
    return this.online.get(deviceIdentity(tenantCode, deviceNo)) === true;
  }

  /**
   * Ends a device's session on the external broker, whatever broker it is: a connection under
   * the device's client id takes its session over (MQTT 5 §3.1.4: the broker closes the older
   * connection and publishes its will), then leaves. The auth hook lets the server's identity
   * use a device's client id for exactly this. Every node hears the end of an identity at once
   * (db/device-notify.sql) and forgets the secret, but the broker may cache an allowance of its own, so
   * a device that got back in meanwhile is taken over once more after two credential-cache
   * lifetimes (after a rotation the device reconnects with its new secret once). The broker
   * alone knows which connection holds the id: a rotation ends the session whatever secret it
   * was made with.
   */
  disconnectDevice(ended: EndedDeviceIdentity): void {
    if (ended.tenantCode === undefined || ended.deviceNo === undefined) return;
    const identity = deviceIdentity(ended.tenantCode, ended.deviceNo);
    void this.kick(identity);
    clearTimeout(this.kicks.get(identity));
    const again = setTimeout(() => {
      this.kicks.delete(identity);
      void this.kick(identity);
    }, 2 * MQTT_LIMITS.credentialCacheMs);
    again.unref();
    this.kicks.set(identity, again);
  }

  /**
   * Nothing to re-check here: the external broker holds the device connections, and it cannot
   * say which secret each was made with. Every node takes over the identities it hears end, so
   * one node missing an announcement leaves no session behind.
   */
  async recheckDevices(): Promise<void> {}

  endpoints(): TransportEndpoints {
    const url = new URL(this.config.mqttUrl!);
    url.username = '';
    url.password = '';
    return { wsPath: MQTT_WS_PATH, externalUrl: url.toString().replace(/\/$/, '') };
  }

  state(): TransportState {
    // Connected is not enough: until a consumer has subscribed again it takes no messages.
    const connected = this.consumers.filter((consumer) => consumer.subscribed).length;
    const total = this.consumers.length;
    return {
      kind: 'external',
      state: total > 0 && connected === total ? 'up' : connected > 0 ? 'partial' : 'down',
      consumers: total,
      consumersConnected: connected,
      uplinksStored: this.stored,
      adoptedSessions: this.adoption.adoptedSessions,
    };
  }

  async start(): Promise<void> {
    // Config checks MQTT_URL; this catches a configuration made in code (tests).
    if (!consumerAddress(this.config.mqttUrl!))
      throw new Error('MQTT_URL must be an mqtt:// or mqtts:// URL (not WebSocket)');
    if (!this.config.mqttAuthSecret)
      this.app.log.warn(
        'MQTT_URL without MQTT_AUTH_SECRET: the auth hooks (/api/iot/mqtt/...) refuse everything, so the external broker must check devices and topics on its own',
      );
    await this.broker.start();
    this.broker.attachWebSocket(this.app.server);
    this.relay = this.client('relay', {});
    this.relay.on('message', (topic, payload, packet) => {
      void this.broker
        .publish({ topic, payload, qos: 0, retain: packet.retain })
        .catch(() => undefined);
    });
    this.watcher = this.client('watch', {
      // The broker tells every node at once when this one is lost (session-adoption.ts).
      will: {
        topic: nodeStateTopic(this.config.mqttNodeId),
        payload: Buffer.from(nodeState('gone')),
        qos: 1,
        retain: true,
      },
    });
    this.watcher.on('connect', () => {
      this.watcher
        ?.publishAsync(nodeStateTopic(this.config.mqttNodeId), nodeState('up'), {
          qos: 1,
          retain: true,
        })
        .catch((error: unknown) =>
          this.app.log.warn({ err: error }, 'external MQTT broker: node state not published'),
        );
    });
    this.watcher.on('message', (topic, payload) => {
      if (topic.startsWith(NODE_STATE_PREFIX)) {
        const state = parseNodeState(payload);
        if (state) this.adoption.peerState(topic.slice(NODE_STATE_PREFIX.length), state);
        return;
      }
      const parsed = parseDeviceTopic(topic);
      const status = parsed && parseStatus(payload);
      if (parsed && status)
        this.online.set(deviceIdentity(parsed.tenantCode, parsed.deviceNo), status.online);
    });
    for (let i = 0; i < this.config.mqttConsumers; i += 1) {
      const consumer = this.consumer(consumerClientId(this.config.mqttNodeId, i), 'reconnect');
      this.consumers.push(consumer);
      consumer.start();
    }
    // A node coming back to a long queue in its sessions reads its SUBACK only after the first
    // window of queued readings, stored at the pace of a database that may be busy: it starts
    // anyway after a while, and /api/health says "partial" until every consumer has subscribed.
    const subscribed = Promise.all([
      this.watcher.subscribeAsync(['t/+/d/+/status', NODE_STATES], { qos: 1 }),
      ...this.consumers.map((consumer) => consumer.subscribedOnce),
    ]).then(() => true);
    subscribed.catch((error: unknown) =>
      this.app.log.warn({ err: error }, 'external MQTT broker: subscribing failed'),
    );
    const inTime = await Promise.race([
      subscribed,
      new Promise<false>((resolve) =>
        setTimeout(resolve, FIRST_SUBSCRIPTION_WAIT_MS, false).unref(),
      ),
    ]);
    if (!inTime)
      this.app.log.warn(
        `external MQTT broker: not every consumer has subscribed after ${FIRST_SUBSCRIPTION_WAIT_MS / 1000} s (a queue being drained, or the broker away): starting; /api/health says so until they have`,
      );
    if (this.config.mqttSessionExpirySeconds > 0) this.adoption.start();
  }

  /**
   * A consumer of the shared uplink subscriptions on a persistent session: what the broker has
   * queued for it (or sent and not had acknowledged) is delivered when it connects again, after
   * a restart of this node or of the broker. It subscribes on every connection, even when the
   * broker says the session was kept: Mosquitto 2.0 restores a persistent session's queued
   * messages and plain subscriptions from its persistence file but not its shared ones
   * (checked with 2.0.11), and subscribing again to the same filters changes nothing otherwise.
   * A take-over of its client id is taken back (a second node under the same MQTT_NODE_ID is a
   * mistake the log names).
   */
  private consumer(clientId: string, onTakeOver: 'reconnect' | 'release'): WindowedConsumer {
    const { mqttUrl, mqttUsername, mqttPassword } = this.config;
    return new WindowedConsumer({
      url: mqttUrl!,
      clientId,
      ...(mqttUsername !== undefined && { username: mqttUsername }),
      ...(mqttPassword !== undefined && { password: mqttPassword }),
      sessionExpirySeconds: this.config.mqttSessionExpirySeconds,
      window: this.config.mqttConsumerWindow,
      maximumPacketSize: MAX_CONSUMED_PACKET_BYTES,
      filters: uplinkFilters(this.config.mqttShareGroup),
      reconnectMs: CONSUMER_RECONNECT_MS,
      onTakeOver,
      log: this.app.log,
      deliver: async (topic, payload) => {
        this.storing += 1;
        this.lastDeliveryAt = Date.now();
        try {
          if (await this.consume(topic, payload)) this.stored += 1;
        } finally {
          this.storing -= 1;
        }
      },
      shouldSubscribe: () => !this.leaving,
    });
  }

  async stop(): Promise<void> {
    // Adopted sessions stay on the broker for their owners.
    await this.adoption.stop();
    const left = this.config.mqttLeaveOnStop && (await this.leave());
    this.stopping = true;
    for (const timer of this.kicks.values()) clearTimeout(timer);
    this.kicks.clear();
    await this.broker.stop();
    // Not acknowledged yet = not stored: the broker keeps those messages in this node's sessions
    // and delivers them again when it is back (within MQTT_SESSION_EXPIRY_SECONDS).
    await Promise.all([
      ...(left ? [] : this.consumers.map((consumer) => consumer.stop())),
      this.relay?.endAsync(true),
      this.sayGoodbye(),
    ]);
  }

  /**
   * A stopped node is not lost: its state is cleared and its watcher disconnects properly, so
   * the broker drops its will and no peer adopts sessions it is coming back to. A broker that
   * does not answer in time gets no goodbye (the will then says gone, as for a crash).
   */
  private async sayGoodbye(): Promise<void> {
    const watcher = this.watcher;
    if (!watcher) return;
    const polite = (async () => {
      if (!watcher.connected) return false;
      await watcher.publishAsync(nodeStateTopic(this.config.mqttNodeId), '', {
        qos: 1,
        retain: true,
      });
      await watcher.endAsync(false);
      return true;
    })().catch(() => false);
    const inTime = await Promise.race([
      polite,
      new Promise<false>((resolve) => setTimeout(resolve, STATE_CLEAR_MS, false).unref()),
    ]);
    if (!inTime) await watcher.endAsync(true);
  }

  /**
   * Leaves the share group for good (MQTT_LEAVE_ON_STOP: a node removed or scaled down), so
   * that the broker queues nothing more for this node's sessions: it gives an offline member its
   * turn like any other, and what waits in a session that expires is gone (Mosquitto 2.0 does
   * not hand it to another member). Unsubscribes, stores and acknowledges what is still coming,
   * then ends the sessions (DISCONNECT with session expiry 0). Answers false, keeping the
   * sessions for this node's return, when a consumer is away or the store does not finish.
   */
  private async leave(): Promise<boolean> {
    this.leaving = true;
    if (this.config.mqttSessionExpirySeconds === 0) return false;
    if (this.consumers.some((consumer) => !consumer.connected)) {
      this.app.log.warn('MQTT_LEAVE_ON_STOP: a consumer is not connected, its session is kept');
      return false;
    }
    try {
      // A consumer with a full window reads its UNSUBACK only as stores finish: bounded too.
      await Promise.race([
        Promise.all(this.consumers.map((consumer) => consumer.unsubscribe())),
        new Promise((_, reject) =>
          setTimeout(() => reject(new Error('no UNSUBACK in time')), LEAVE_MAX_MS).unref(),
        ),
      ]);
    } catch (error) {
      this.app.log.warn({ err: error }, 'MQTT_LEAVE_ON_STOP: unsubscribing failed, sessions kept');
      return false;
    }
    const deadline = Date.now() + LEAVE_MAX_MS;
    const done = () => this.storing === 0 && Date.now() - this.lastDeliveryAt >= LEAVE_QUIET_MS;
    while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    if (!done()) {
      this.app.log.warn('MQTT_LEAVE_ON_STOP: uplinks still being stored, the sessions are kept');
      return false;
    }
    await Promise.all(this.consumers.map((consumer) => consumer.stop({ endSession: true })));
    this.app.log.info("left the shared subscription group: this node's sessions are ended");
    return true;
  }

  /** MQTT_USERNAME / MQTT_PASSWORD when set (else mqtt.js reads MQTT_URL's user info). */
  private credentials(): IClientOptions {
    const { mqttUsername: username, mqttPassword: password } = this.config;
    return {
      ...(username !== undefined && { username }),
      ...(password !== undefined && { password }),
    };
  }

  private async kick(identity: string): Promise<void> {
    if (this.stopping) return;
    try {
      const client = await connectAsync(
        this.config.mqttUrl!,
        {
          protocolVersion: 5,
          clientId: identity,
          clean: true,
          reconnectPeriod: 0,
          connectTimeout: 10_000,
          ...this.credentials(),
        },
        false,
      );
      await client.endAsync();
      this.app.log.info({ device: identity }, 'secret revoked: device session ended');
    } catch (error) {
      this.app.log.warn(
        { err: error, device: identity },
        'secret revoked but the device session could not be taken over on the external broker',
      );
    }
  }

  private client(role: string, options: IClientOptions): MqttClient {
    const client = connect(this.config.mqttUrl!, {
      protocolVersion: 5,
      clientId: `shuili-${this.config.mqttNodeId}-${role}`,
      // The relay and the watcher keep nothing: a browser's live view and the retained statuses
      // are sent afresh on every connection.
      clean: true,
      reconnectPeriod: 2000,
      // A broker that refused once (starting, its auth back end away) is asked again: mqtt.js
      // otherwise stops reconnecting after a refused CONNACK, and live values would stop for good.
      reconnectOnConnackError: true,
      ...this.credentials(),
      ...options,
    });
    client.on('error', (error) =>
      this.app.log.warn({ err: error, role }, 'external MQTT broker error'),
    );
    return client;
  }

  /**
   * Hands one shared message over; resolves once it is stored (retrying until it is), when it may
   * be acknowledged: true, or false for a message refused (topic or size). While the node stops,
   * a failed store is not tried again and the promise never resolves: the message stays
   * unacknowledged, the broker's to send again.
   */
  private async consume(topic: string, payload: Buffer): Promise<boolean> {
    const parsed = parseDeviceTopic(topic);
    if (!parsed || payload.length > MAX_PAYLOAD_BYTES) {
      this.app.log.warn({ topic, bytes: payload.length }, 'uplink refused: topic or size');
      return false;
    }
    const uplink: Uplink = {
      tenantCode: parsed.tenantCode,
      deviceNo: parsed.deviceNo,
      channel: parsed.channel as UplinkChannel,
      payload,
      receivedAt: Date.now(),
    };
    if (parsed.channel === 'status') {
      const status = parseStatus(payload);
      const handler = this.presenceHandler;
      if (status && handler) {
        Promise.resolve()
          .then(() =>
            handler({ ...parsed, online: status.online, at: uplink.receivedAt } as Presence),
          )
          .catch((error: unknown) =>
            this.app.log.warn({ err: error, topic }, 'presence handler failed'),
          );
      }
    }
    for (let delay = 1000; ; delay = Math.min(delay * 2, MAX_RETRY_MS)) {
      const handler = this.uplinkHandler;
      if (!handler) return false;
      try {
        await handler(uplink);
        return true;
      } catch (error) {
        if (this.stopping) return new Promise<boolean>(() => {});
        this.app.log.warn({ err: error, topic }, `uplink not stored: retrying in ${delay} ms`);
        await new Promise((resolve) => setTimeout(resolve, delay).unref());
      }
    }
  }

  /** Subscribes the relay to the tenants of this node's browsers, and no others. */
  private async syncRelay(): Promise<void> {
    const relay = this.relay;
    if (!relay) return;
    const wanted = this.broker.browserTenants();
    for (const tenant of wanted) {
      if (this.relayed.has(tenant)) continue;
      this.relayed.add(tenant);
      await relay.subscribeAsync(`t/${tenant}/#`, { qos: 0 }).catch(() => undefined);
    }
    for (const tenant of [...this.relayed]) {
      if (wanted.has(tenant)) continue;
      this.relayed.delete(tenant);
      await relay.unsubscribeAsync(`t/${tenant}/#`).catch(() => undefined);
    }
  }
}

/** A node's retained state; an empty payload (a node stopped) says nothing. */
function parseNodeState(payload: Buffer): 'up' | 'gone' | undefined {
  try {
    const state = (JSON.parse(payload.toString('utf8')) as { state?: unknown }).state;
    return state === 'up' || state === 'gone' ? state : undefined;
  } catch {
    return undefined;
  }
}

function parseStatus(payload: Buffer): { online: boolean } | undefined {
  try {
    const parsed = statusPayloadSchema.safeParse(JSON.parse(payload.toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
