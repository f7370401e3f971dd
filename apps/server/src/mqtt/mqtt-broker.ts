import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { Aedes, type Client, type PublishPacket } from 'aedes';
import {
  deviceIdentity,
  deviceTopic,
  parseDeviceTopic,
  type UplinkChannel,
} from '@shuili/contract';
import type { FastifyBaseLogger } from 'fastify';
import { WebSocketServer, createWebSocketStream } from 'ws';
import {
  DeviceIdentityEndedError,
  type EndedDeviceIdentity,
  type Presence,
  type Uplink,
} from './device-transport';
import type { BrowserAccess, BrowserAccessChange } from './browser-access';
import { guardFrames } from './frame-guard';
import { CONNACK, type MqttAuthenticator } from './mqtt-authenticator';
import { MQTT_LIMITS } from './mqtt-limits';
import type { MqttPrincipal } from './mqtt-principal';
import { mayPublish, mayReceive, maySubscribe } from './topic-acl';

/** The WebSocket path of MQTT on the HTTP server (DESIGN §6). */
export const MQTT_WS_PATH = '/mqtt';

export interface MqttBrokerOptions {
  authenticator: MqttAuthenticator;
  log: FastifyBaseLogger;
  /** False in external mode: devices talk to the external broker, this one serves browsers. */
  acceptDevices: boolean;
  /** What each browser may receive, and the changes that narrow or end it. */
  browsers: BrowserAccess;
}

type Refusal = Error & { returnCode: number };
/** aedes keeps a client's subscriptions, restored ones included, here (not in its types). */
type ClientSubscriptions = { subscriptions?: Record<string, unknown> };
/** aedes reports a refused subscription with QoS 128 (outside its QoS type). */
const REFUSED = 128;
const refusal = (returnCode: number, message: string): Refusal =>
  Object.assign(new Error(message), { returnCode });

/** Whether a client's connection has more than the live buffer waiting to be written. */
function isBehind(client: Client): boolean {
  const conn = (client as Client & { conn?: Duplex }).conn;
  return !!conn && (conn.writableNeedDrain || conn.writableLength > MQTT_LIMITS.liveBufferBytes);
}

/**
 * aedes with Shuili's rules: authentication, the topic ACL, limits, presence, uplinks whose
 * PUBACK waits for storage, and the listeners (any stream, the /mqtt WebSocket).
 */
export class MqttBroker {
  readonly aedes: Aedes;
  private readonly principals = new WeakMap<Client, MqttPrincipal>();
  /** Connected clients by id (aedes keeps its own map, but not in its public API). */
  private readonly clients = new Map<string, Client>();
  /** Device connections whose command subscription is in place (see {@link announce}). */
  private readonly listening = new WeakSet<Client>();
  /** Device connections whose coming online was reported (see {@link announce}). */
  private readonly announced = new WeakSet<Client>();
  /** Device connections that sent something: their leaving is reported (see {@link gone}). */
  private readonly active = new WeakSet<Client>();
  private uplinkHandler: ((uplink: Uplink) => Promise<void>) | undefined;
  private presenceHandler: ((presence: Presence) => void | Promise<void>) | undefined;
  private wss: WebSocketServer | undefined;
  private httpServer: Server | undefined;
  private sweep: NodeJS.Timeout | undefined;
  /** Browser connections by session, and the timer that re-checks each when its session would end. */
  private readonly sessionTimers = new WeakMap<Client, NodeJS.Timeout>();
  private unwatch: (() => void) | undefined;
  /** Access changes heard so far, and how many a browser's check at CONNECT had seen. */
  private accessChanges = 0;
  private readonly checkedAt = new WeakMap<Client, number>();
  /** Live copies not sent to browsers that were behind (see MQTT_LIMITS.liveBufferBytes). */
  private skippedLive = 0;
  private skippedReported = 0;

  constructor(private readonly options: MqttBrokerOptions) {
    this.aedes = new Aedes({
      concurrency: MQTT_LIMITS.concurrency,
      queueLimit: MQTT_LIMITS.queueLimit,
      maxInflightInbound: MQTT_LIMITS.maxInflightInbound,
      maxTopicLevels: MQTT_LIMITS.maxTopicLevels,
      connectTimeout: MQTT_LIMITS.connectTimeoutMs,
      keepaliveLimit: MQTT_LIMITS.maxKeepaliveSeconds,
      drainTimeout: MQTT_LIMITS.drainTimeoutMs,
      // Heartbeats go to $SYS, which no client may read: once an hour keeps the noise down.
      heartbeatInterval: 3_600_000,
      authenticate: (client, username, password, done) => {
        this.authenticate(client, username, password).then(
          (error) => (error ? done(error as never, null) : done(null, true)),
          (error: unknown) => {
            this.options.log.error({ err: error }, 'MQTT authentication failed');
            done(refusal(3, 'server unavailable') as never, null);
          },
        );
      },
      authorizePublish: (client, packet, done) => this.authorizePublish(client, packet, done),
      authorizeSubscribe: (client, sub, done) => {
        const principal = this.principals.get(client);
        done(null, principal && maySubscribe(principal, sub.topic) ? sub : null);
      },
      authorizeForward: (client, packet) => {
        const principal = this.principals.get(client);
        if (!principal || !mayReceive(principal, packet.topic)) return null;
        if (principal.kind === 'browser' && isBehind(client)) {
          this.skippedLive += 1;
          return null;
        }
        return packet;
      },
    });
    this.aedes.on('clientReady', (client) => this.ready(client));
    this.aedes.on('clientDisconnect', (client) => this.gone(client));
    // Emitted once the subscription is in place; aedes may complete a SUBSCRIBE before
    // 'clientReady' (it reads on as soon as CONNACK is written), so this only records it.
    this.aedes.on('subscribe', (subscriptions, client) => {
      const principal = this.principals.get(client);
      if (principal?.kind !== 'device') return;
      const cmd = deviceTopic(principal.tenantCode, principal.deviceNo, 'cmd');
      if (!subscriptions.some((sub) => sub.topic === cmd && (sub.qos as number) !== REFUSED))
        return;
      this.listening.add(client);
      this.announce(client);
    });
    this.aedes.on('clientError', (client, error) =>
      this.options.log.debug({ clientId: client.id, err: error }, 'MQTT client error'),
    );
    this.aedes.on('connectionError', (client, error) =>
      this.options.log.debug({ clientId: client?.id, err: error }, 'MQTT connection refused'),
    );
  }

  onUplink(handler: (uplink: Uplink) => Promise<void>): void {
    this.uplinkHandler = handler;
  }

  onPresence(handler: (presence: Presence) => void | Promise<void>): void {
    this.presenceHandler = handler;
  }

  async start(): Promise<void> {
    await this.aedes.listen();
    // A browser's connection ends with its session and follows its user's access as it
    // changes: the database announces each change, and the browsers it concerns are re-checked.
    this.unwatch = this.options.browsers.watch((change) => this.accessChanged(change));
    // A backstop for announcements missed while the database was away.
    this.sweep = setInterval(() => {
      void this.recheckBrowsers(() => true);
      this.reportSkipped();
    }, MQTT_LIMITS.sessionSweepMs);
    this.sweep.unref();
  }

  /** Serves one connection (TCP, TLS or WebSocket stream). */
  handle = (conn: Duplex, req?: IncomingMessage): void => {
    guardFrames(conn, MQTT_LIMITS.maxPacketBytes, () => {
      this.options.log.warn('MQTT packet over the size limit: connection closed');
      conn.destroy();
    });
    this.aedes.handle(conn, req);
  };

  /** MQTT over WebSocket at /mqtt on the HTTP server; other upgrade paths are left alone. */
  attachWebSocket(server: Server): void {
    this.httpServer = server;
    this.wss = new WebSocketServer({ noServer: true, maxPayload: MQTT_LIMITS.maxPacketBytes });
    server.on('upgrade', this.upgrade);
  }

  private upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== MQTT_WS_PATH || !this.wss) return;
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      // Room for the live buffer: aedes waits for a stream that reports itself full, and with
      // the default 16 KB a slow browser would hold back the devices before it is ever skipped.
      const stream = createWebSocketStream(ws, {
        writableHighWaterMark: 2 * MQTT_LIMITS.liveBufferBytes,
      });
      // mqtt-packet writes a packet in several pieces (header, topic, payload) under cork; ws's
      // stream would make each piece its own WebSocket frame and socket write. Written together,
      // everything queued in one tick (many packets to a busy browser) leaves as one frame:
      // MQTT over WebSocket is a byte stream, frame boundaries carry no meaning (MQTT §6).
      stream._writev = (chunks, callback) =>
        ws.send(Buffer.concat(chunks.map(({ chunk }) => chunk as Buffer)), callback);
      stream.on('error', () => stream.destroy());
      this.handle(stream, req);
    });
  };

  publish(packet: { topic: string; payload: Buffer; qos: 0 | 1; retain?: boolean }): Promise<void> {
    return new Promise((resolve, reject) =>
      this.aedes.publish(
        { cmd: 'publish', dup: false, ...packet, retain: packet.retain ?? false } as PublishPacket,
        (error) => (error ? reject(error) : resolve()),
      ),
    );
  }

  isConnected(tenantCode: string, deviceNo: string): boolean {
    return this.clients.get(deviceIdentity(tenantCode, deviceNo))?.connected === true;
  }

  /**
   * Closes the connections of an identity that ended: those bound to the ended secret, or to
   * the device when it was deleted or renumbered (a connection made since with a newer secret of
   * the same device stays).
   */
  disconnectDevice(ended: EndedDeviceIdentity): void {
    for (const client of [...this.clients.values()]) {
      const principal = this.principals.get(client);
      if (principal?.kind !== 'device' || principal.deviceId !== ended.deviceId) continue;
      if (!ended.credentialId || principal.credentialId === ended.credentialId) client.close();
    }
  }

  /** Closes the device connections whose secret is not among the live ones (`live` answers). */
  async recheckDevices(
    live: (credentialIds: string[]) => Promise<ReadonlySet<string>>,
  ): Promise<void> {
    const bound = new Map<Client, string>();
    for (const client of this.clients.values()) {
      const principal = this.principals.get(client);
      if (principal?.kind === 'device' && principal.credentialId)
        bound.set(client, principal.credentialId);
    }
    if (bound.size === 0) return;
    const alive = await live([...new Set(bound.values())]);
    for (const [client, credentialId] of bound) if (!alive.has(credentialId)) client.close();
  }

  /**
   * Closes a connection under the device's identity that belongs to another device (an ended one
   * whose announcement has not arrived yet), so that what is sent next to the identity never
   * reaches it.
   */
  closeStale(tenantCode: string, deviceNo: string, deviceId: string): void {
    const client = this.clients.get(deviceIdentity(tenantCode, deviceNo));
    const principal = client && this.principals.get(client);
    if (principal?.kind === 'device' && principal.deviceId !== deviceId) client!.close();
  }

  /** Browser clients connected now, by tenant code (external mode relays their tenants). */
  browserTenants(): Set<string> {
    const tenants = new Set<string>();
    for (const client of this.clients.values()) {
      const principal = this.principals.get(client);
      if (principal?.kind === 'browser') tenants.add(principal.tenantCode);
    }
    return tenants;
  }

  /** Told when a browser connects or leaves (external mode adjusts its relay). */
  onBrowsersChanged: (() => void) | undefined;

  async stop(): Promise<void> {
    if (this.sweep) clearInterval(this.sweep);
    this.unwatch?.();
    this.httpServer?.off('upgrade', this.upgrade);
    this.wss?.close();
    await new Promise<void>((resolve) => this.aedes.close(() => resolve()));
  }

  private async authenticate(
    client: Client,
    username: string | undefined,
    password: Buffer | undefined,
  ): Promise<Refusal | undefined> {
    if (this.clients.size >= MQTT_LIMITS.maxClients)
      return refusal(3, 'server unavailable: too many connections');
    const changesBefore = this.accessChanges;
    const result = await this.options.authenticator.authenticate(client.id, username, password);
    if (!result.ok) return refusal(result.returnCode, 'connection refused');
    const principal = result.principal;
    if (principal.kind === 'device' && !this.options.acceptDevices)
      return refusal(CONNACK.notAuthorized, 'devices connect to the external broker');
    // A browser may not take over another user's client id (a device's id is its identity).
    const holder = this.clients.get(client.id);
    const held = holder && this.principals.get(holder);
    if (
      held?.kind === 'browser' &&
      principal.kind === 'browser' &&
      held.userId !== principal.userId
    ) {
      return refusal(CONNACK.identifierRejected, 'client id in use');
    }
    this.principals.set(client, principal);
    if (principal.kind === 'browser') {
      this.endWithSession(client, result.sessionEndsInMs);
      this.checkedAt.set(client, changesBefore);
    }
    return undefined;
  }

  private authorizePublish(
    client: Client | null,
    packet: PublishPacket,
    done: (error?: Error | null) => void,
  ): void {
    const principal = client && this.principals.get(client);
    if (!principal || !mayPublish(principal, packet.topic))
      return done(new Error(`not allowed to publish on ${packet.topic}`));
    const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
    if (payload.length > MQTT_LIMITS.maxPayloadBytes)
      return done(new Error(`payload of ${payload.length} bytes is over the limit`));
    const topic = parseDeviceTopic(packet.topic)!;
    this.active.add(client);
    const handler = this.uplinkHandler;
    if (!handler) return done(null);
    // aedes writes the PUBACK right after this callback: calling it once the handler has
    // stored the message is what makes "acknowledged" mean "stored" (DESIGN §6).
    handler({
      tenantCode: topic.tenantCode,
      deviceNo: topic.deviceNo,
      channel: topic.channel as UplinkChannel,
      payload,
      receivedAt: Date.now(),
      deviceId: principal.kind === 'device' ? principal.deviceId : undefined,
    }).then(
      () => done(null),
      (error: unknown) => {
        // Its device is gone (or the number is another device's now): nothing of it goes on.
        if (error instanceof DeviceIdentityEndedError) {
          client.close();
          return done(error);
        }
        this.options.log.warn(
          { err: error, topic: packet.topic },
          'uplink not stored: no acknowledgement, the device will send it again',
        );
        // QoS 0 promised nothing; still show it live. QoS 1: aedes closes the connection and
        // the device resends its unacknowledged messages when it reconnects (MQTT §4.4).
        done(packet.qos === 0 ? null : new Error('uplink not stored'));
      },
    );
  }

  private ready(client: Client): void {
    const principal = this.principals.get(client);
    if (!principal) return client.close();
    this.clients.set(client.id, client);
    if (principal.kind === 'browser') {
      // A change announced while it was being set up did not reach it (it was not listed yet).
      if (this.checkedAt.get(client) !== this.accessChanges)
        void this.recheckBrowsers((browser) => browser === principal);
      return this.onBrowsersChanged?.();
    }
    if (principal.kind !== 'device') return;
    // A persistent session's subscriptions are restored before this, without a 'subscribe'.
    const cmd = deviceTopic(principal.tenantCode, principal.deviceNo, 'cmd');
    if ((client as Client & ClientSubscriptions).subscriptions?.[cmd]) this.listening.add(client);
    this.announce(client);
  }

  /**
   * A device is reported online once per connection, when it can receive commands: the
   * connection is ready and its cmd subscription is in place, in whichever order aedes got
   * there (the listeners deliver pending commands on it: reported at CONNECT, they would reach
   * no subscription and be lost). A device that never subscribes (a plain sensor) is not
   * reported: ingestion marks it online from what it sends, and its leaving is reported.
   */
  private announce(client: Client): void {
    const principal = this.principals.get(client);
    if (principal?.kind !== 'device' || this.announced.has(client)) return;
    if (!this.listening.has(client) || this.clients.get(client.id) !== client) return;
    this.announced.add(client);
    this.presence(principal, true);
  }

  private gone(client: Client): void {
    clearTimeout(this.sessionTimers.get(client));
    const principal = this.principals.get(client);
    // A session taken over by a newer connection of the same client: the newer one is current.
    if (this.clients.get(client.id) !== client) return;
    this.clients.delete(client.id);
    if (principal?.kind === 'browser') this.onBrowsersChanged?.();
    if (principal?.kind === 'device' && (this.announced.has(client) || this.active.has(client)))
      this.presence(principal, false);
  }

  private presence(
    principal: { tenantCode: string; deviceNo: string; deviceId?: string },
    online: boolean,
  ): void {
    const handler = this.presenceHandler;
    if (!handler) return;
    const { tenantCode, deviceNo, deviceId } = principal;
    const event = { tenantCode, deviceNo, deviceId, online };
    Promise.resolve()
      .then(() => handler({ ...event, at: Date.now() }))
      .catch((error: unknown) =>
        this.options.log.warn({ err: error, ...event }, 'presence handler failed'),
      );
  }

  /** Live copies skipped since the last report, said once a minute rather than per copy. */
  private reportSkipped(): void {
    const skipped = this.skippedLive - this.skippedReported;
    if (skipped === 0) return;
    this.skippedReported = this.skippedLive;
    this.options.log.warn(
      { skipped },
      'live copies not sent to browsers that were not keeping up (their pages show newer values)',
    );
  }

  /** Live copies skipped so far (tests and the benchmarks read it). */
  get skippedLiveCopies(): number {
    return this.skippedLive;
  }

  /** Re-checks the connected browsers a change concerns. */
  private accessChanged(change: BrowserAccessChange): void {
    this.accessChanges += 1;
    void this.recheckBrowsers((browser) => {
      switch (change.kind) {
        case 'session':
          return browser.sessionId === change.sessionId;
        case 'user':
          return browser.userId === change.userId;
        case 'tenant':
          return browser.tenantId === change.tenantId;
        case 'devices':
          // Only confined browsers (zones, projects) hold device lists that a move can change.
          return browser.tenantId === change.tenantId && browser.live?.deviceNos !== null;
        case 'everything':
          return true;
      }
    });
  }

  /**
   * Asks again what each matching browser may receive: one whose session ended, or whose user
   * or tenant may no longer be here, is disconnected; the others get their new live filter.
   */
  private async recheckBrowsers(
    concerns: (browser: Extract<MqttPrincipal, { kind: 'browser' }>) => boolean,
  ): Promise<void> {
    for (const client of [...this.clients.values()]) {
      const principal = this.principals.get(client);
      if (principal?.kind !== 'browser' || !concerns(principal)) continue;
      const allowed = await this.options.browsers.filterFor(principal).catch((error: unknown) => {
        this.options.log.warn({ err: error }, 'could not re-check a browser connection');
        return 'unknown' as const;
      });
      if (allowed === 'unknown') continue;
      if (!allowed) {
        client.close();
        continue;
      }
      principal.live = allowed.filter;
      this.endWithSession(client, allowed.sessionEndsInMs);
    }
  }

  /**
   * Re-checks a browser when its session would end by itself (idle or absolute end): signed-in
   * activity since then keeps it, otherwise the connection closes at that moment.
   */
  private endWithSession(client: Client, endsInMs: number | undefined): void {
    clearTimeout(this.sessionTimers.get(client));
    if (endsInMs === undefined || !Number.isFinite(endsInMs)) return;
    // setTimeout holds at most 2^31-1 ms; a later end is re-checked then.
    const timer = setTimeout(
      () => {
        const principal = this.principals.get(client);
        if (principal?.kind !== 'browser' || this.clients.get(client.id) !== client) return;
        void this.recheckBrowsers((browser) => browser === principal);
      },
      Math.min(Math.max(endsInMs, 0) + 50, 2 ** 31 - 1),
    );
    timer.unref();
    this.sessionTimers.set(client, timer);
  }
}
