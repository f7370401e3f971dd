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
import { MqttAuthenticator } from './mqtt-authenticator';
import { MQTT_WS_PATH, MqttBroker } from './mqtt-broker';
import { MQTT_LIMITS } from './mqtt-limits';

/** Every node joins one group per filter: the external broker gives each message to one node. */
const uplinkFilters = (group: string) =>
  ['telemetry', 'event', 'cmd/ack', 'status'].map(
    (channel) => `$share/${group}/t/+/d/+/${channel}`,
  );
/** A failed store is tried again after 1, 2, 4 ... up to this many ms. */
const MAX_RETRY_MS = 30_000;
/** Consumers come back quickly: until they have subscribed, the broker has nobody to queue for. */
const CONSUMER_RECONNECT_MS = 500;
/** Leaving (MQTT_LEAVE_ON_STOP): done when nothing is being stored and nothing came for this long. */
const LEAVE_QUIET_MS = 1000;
/** ... or given up after this long (main.ts exits after 25 s), keeping the sessions. */
const LEAVE_MAX_MS = 10_000;

/**
 * Devices on an external broker (Mosquitto, EMQX: `MQTT_URL`), consumed through MQTT 5 shared
 * subscriptions so that several server nodes split the load; each message is acknowledged only
 * once it is stored (`customHandleAcks`).
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
  private readonly consumers: MqttClient[] = [];
  /** Consumers whose shared subscriptions are in place on the broker's current run. */
  private readonly subscribed = new Set<MqttClient>();
  /** Uplinks handed to the store and not acknowledged yet, over every consumer. */
  private storing = 0;
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
    const connected = this.consumers.filter(
      (client) => client.connected && this.subscribed.has(client),
    ).length;
    const total = this.consumers.length;
    return {
      kind: 'external',
      state: total > 0 && connected === total ? 'up' : connected > 0 ? 'partial' : 'down',
      consumers: total,
      consumersConnected: connected,
    };
  }

  async start(): Promise<void> {
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
    this.watcher = this.client('watch', {});
    this.watcher.on('message', (topic, payload) => {
      const parsed = parseDeviceTopic(topic);
      const status = parsed && parseStatus(payload);
      if (parsed && status)
        this.online.set(deviceIdentity(parsed.tenantCode, parsed.deviceNo), status.online);
    });
    const firstSubscriptions: Promise<void>[] = [];
    for (let i = 0; i < this.config.mqttConsumers; i += 1) {
      firstSubscriptions.push(
        new Promise((resolve) => this.consumers.push(this.consumer(i, resolve))),
      );
    }
    await Promise.all([
      this.watcher.subscribeAsync('t/+/d/+/status', { qos: 1 }),
      ...firstSubscriptions,
    ]);
  }

  /**
   * A consumer of the shared uplink subscriptions on a persistent session: what the broker has
   * queued for it (or sent and not had acknowledged) is delivered when it connects again, after
   * a restart of this node or of the broker. It subscribes on every connection, even when the
   * broker says the session was kept: Mosquitto 2.0 restores a persistent session's queued
   * messages and plain subscriptions from its persistence file but not its shared ones
   * (checked with 2.0.11), and subscribing again to the same filters changes nothing otherwise.
   */
  private consumer(index: number, onFirstSubscription: () => void): MqttClient {
    const expiry = this.config.mqttSessionExpirySeconds;
    const client = this.client(`work${index}`, {
      clean: expiry === 0,
      ...(expiry > 0 && { properties: { sessionExpiryInterval: expiry } }),
      reconnectPeriod: CONSUMER_RECONNECT_MS,
      resubscribe: false,
      customHandleAcks: (topic, message, _packet, done) => {
        this.storing += 1;
        this.lastDeliveryAt = Date.now();
        this.consume(topic, message, (code) => {
          this.storing -= 1;
          done(code);
        });
      },
    });
    client.on('close', () => this.subscribed.delete(client));
    client.on('connect', () => {
      if (this.leaving) return;
      client.subscribeAsync(uplinkFilters(this.config.mqttShareGroup), { qos: 1 }).then(
        (granted) => {
          const refused = granted.filter((grant) => grant.qos > 2);
          // Refused (the broker's ACL): said loudly and in /api/health, but the server starts.
          if (refused.length > 0)
            this.app.log.error(
              { refused: refused.map((grant) => grant.topic) },
              'external MQTT broker refused the uplink subscriptions',
            );
          else this.subscribed.add(client);
          onFirstSubscription();
        },
        (error: unknown) =>
          this.app.log.warn({ err: error }, 'uplink subscription failed: retried on reconnect'),
      );
    });
    return client;
  }

  async stop(): Promise<void> {
    const left = this.config.mqttLeaveOnStop && (await this.leave());
    this.stopping = true;
    for (const timer of this.kicks.values()) clearTimeout(timer);
    this.kicks.clear();
    await this.broker.stop();
    // Not acknowledged yet = not stored: the broker keeps those messages in this node's sessions
    // and delivers them again when it is back (within MQTT_SESSION_EXPIRY_SECONDS).
    this.subscribed.clear();
    await Promise.all(
      [...(left ? [] : this.consumers), this.relay, this.watcher].map((client) =>
        client?.endAsync(true),
      ),
    );
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
    if (this.consumers.some((client) => !client.connected)) {
      this.app.log.warn('MQTT_LEAVE_ON_STOP: a consumer is not connected, its session is kept');
      return false;
    }
    const filters = uplinkFilters(this.config.mqttShareGroup);
    await Promise.all(this.consumers.map((client) => client.unsubscribeAsync(filters)));
    this.subscribed.clear();
    const deadline = Date.now() + LEAVE_MAX_MS;
    const done = () => this.storing === 0 && Date.now() - this.lastDeliveryAt >= LEAVE_QUIET_MS;
    while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    if (!done()) {
      this.app.log.warn('MQTT_LEAVE_ON_STOP: uplinks still being stored, the sessions are kept');
      return false;
    }
    await Promise.all(
      this.consumers.map((client) =>
        client.endAsync(false, { properties: { sessionExpiryInterval: 0 } }),
      ),
    );
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
      ...this.credentials(),
      ...options,
    });
    client.on('error', (error) =>
      this.app.log.warn({ err: error, role }, 'external MQTT broker error'),
    );
    return client;
  }

  /** Hands one shared message over and acknowledges it once stored (retrying until it is). */
  private consume(topic: string, payload: Buffer, ack: (code: number) => void): void {
    const parsed = parseDeviceTopic(topic);
    if (!parsed || payload.length > MAX_PAYLOAD_BYTES) {
      this.app.log.warn({ topic, bytes: payload.length }, 'uplink refused: topic or size');
      return ack(0);
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
    const attempt = (delay: number) => {
      const handler = this.uplinkHandler;
      if (!handler) return ack(0);
      handler(uplink).then(
        () => ack(0),
        (error: unknown) => {
          if (this.stopping) return;
          this.app.log.warn({ err: error, topic }, `uplink not stored: retrying in ${delay} ms`);
          setTimeout(() => attempt(Math.min(delay * 2, MAX_RETRY_MS)), delay).unref();
        },
      );
    };
    attempt(1000);
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

function parseStatus(payload: Buffer): { online: boolean } | undefined {
  try {
    const parsed = statusPayloadSchema.safeParse(JSON.parse(payload.toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
