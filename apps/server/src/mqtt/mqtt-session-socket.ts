import net from 'node:net';
import tls from 'node:tls';
import mqttPacket, { type IConnackPacket, type IConnectPacket, type Packet } from 'mqtt-packet';
import { consumerAddress } from './consumer-url';

export interface SessionSocketOptions {
  url: string;
  clientId: string;
  username?: string;
  password?: string;
  /** Clean start; the session lives on for sessionExpiryInterval seconds after a disconnect. */
  clean: boolean;
  sessionExpiryInterval: number;
  /** How many unacknowledged QoS 1 messages the broker may send at once (MQTT 5 §3.1.2.11.3). */
  receiveMaximum: number;
  /** The largest packet the broker may send; a larger one it drops (MQTT 5 §3.1.2.11.4). */
  maximumPacketSize: number;
  keepaliveSeconds: number;
  connectTimeoutMs: number;
}

export interface SessionSocketHandlers {
  /** CONNACK accepted: called before any later packet of the same read is handed over. */
  open(link: SessionSocket, connack: IConnackPacket): void;
  /** Every packet after CONNACK but PINGRESP, in arrival order. */
  packet(packet: Packet, link: SessionSocket): void;
  /** The connection is gone (once), with the broker's DISCONNECT reason code when it sent one. */
  close(link: SessionSocket, reason: { disconnectReason?: number; error?: Error }): void;
}

/** Refused by the broker (CONNACK reason code ≥ 0x80), e.g. bad credentials. */
export class ConnectRefused extends Error {
  constructor(readonly reasonCode: number) {
    super(`MQTT CONNACK refused: reason 0x${reasonCode.toString(16)}`);
  }
}

const PINGREQ = mqttPacket.generate({ cmd: 'pingreq' });

/**
 * One MQTT 5 client connection on the packet layer (mqtt-packet over a net or tls socket): it
 * connects, keeps the connection alive and hands every packet to its owner, who answers them.
 * Unlike mqtt.js it acknowledges nothing by itself and reads the next packet without waiting for
 * the previous message's acknowledgement, so its owner can keep many messages in flight; reading
 * stops only when the owner pauses it (TCP back-pressure towards the broker).
 */
export class SessionSocket {
  private readonly parser = mqttPacket.parser({ protocolVersion: 5 });
  private paused = false;
  /**
   * PUBLISH packets parsed while paused: one read can hold many, and none is handed over until
   * resumed, so the owner never has more in hand than it allowed (at most one read's worth here).
   */
  private backlog: Packet[] = [];
  private handlers!: SessionSocketHandlers;
  private closed = false;
  private lastWriteAt = Date.now();
  private lastReadAt = Date.now();
  private pingSent = false;
  private keepaliveTimer: NodeJS.Timeout | undefined;
  private disconnectReason: number | undefined;
  private keepaliveMs: number;

  private constructor(
    private readonly socket: net.Socket,
    options: SessionSocketOptions,
  ) {
    this.keepaliveMs = options.keepaliveSeconds * 1000;
  }

  /** Connects and resolves on a successful CONNACK; rejects on refusal, error or timeout. */
  static connect(
    options: SessionSocketOptions,
    handlers: SessionSocketHandlers,
  ): Promise<{ link: SessionSocket; connack: IConnackPacket }> {
    const address = consumerAddress(options.url);
    if (!address) return Promise.reject(new Error('MQTT_URL: not an mqtt:// or mqtts:// URL'));
    const { host, port } = address;
    const socket = address.tls
      ? tls.connect({ host, port, ...(net.isIP(host) === 0 && { servername: host }) })
      : net.connect({ host, port });
    socket.setNoDelay(true);
    const link = new SessionSocket(socket, options);
    link.handlers = handlers;
    return new Promise((resolve, reject) => {
      let connected = false;
      const timer = setTimeout(
        () => socket.destroy(new Error('MQTT connect timed out')),
        options.connectTimeoutMs,
      );
      let failure: Error | undefined;
      socket.on('error', (error) => (failure ??= error));
      socket.on('close', () => {
        clearTimeout(timer);
        link.stopKeepalive();
        if (link.closed) return;
        link.closed = true;
        if (!connected) reject(failure ?? new Error('MQTT connection closed before CONNACK'));
        else handlers.close(link, { disconnectReason: link.disconnectReason, error: failure });
      });
      link.parser.on('error', (error: Error) => socket.destroy(error));
      link.parser.on('packet', (packet: Packet) => {
        link.lastReadAt = Date.now();
        if (!connected) {
          if (packet.cmd !== 'connack') return void socket.destroy(new Error('expected CONNACK'));
          const code = packet.reasonCode ?? 0;
          if (code >= 0x80) return void socket.destroy((failure = new ConnectRefused(code)));
          connected = true;
          clearTimeout(timer);
          if (packet.properties?.serverKeepAlive !== undefined)
            link.keepaliveMs = packet.properties.serverKeepAlive * 1000;
          link.startKeepalive();
          handlers.open(link, packet);
          return resolve({ link, connack: packet });
        }
        if (packet.cmd === 'pingresp') return;
        if (packet.cmd === 'disconnect') link.disconnectReason = packet.reasonCode ?? 0;
        // Only messages wait: a SUBACK behind a window of them must not wait for their stores.
        if (link.paused && packet.cmd === 'publish') link.backlog.push(packet);
        else handlers.packet(packet, link);
      });
      socket.on('data', (chunk: Buffer) => link.parser.parse(chunk));
      const connect: IConnectPacket = {
        cmd: 'connect',
        protocolVersion: 5,
        clientId: options.clientId,
        clean: options.clean,
        keepalive: options.keepaliveSeconds,
        ...(options.username !== undefined && { username: options.username }),
        ...(options.password !== undefined && { password: Buffer.from(options.password) }),
        properties: {
          ...(options.sessionExpiryInterval > 0 && {
            sessionExpiryInterval: options.sessionExpiryInterval,
          }),
          receiveMaximum: options.receiveMaximum,
          maximumPacketSize: options.maximumPacketSize,
          // No topic aliases: every PUBLISH names its topic (one with an alias is refused).
          topicAliasMaximum: 0,
        },
      };
      link.send(connect);
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  send(packet: Packet): void {
    if (this.closed) return;
    this.lastWriteAt = Date.now();
    this.socket.write(mqttPacket.generate(packet, { protocolVersion: 5 }));
  }

  /** Several packets in one write (acknowledgements released together). */
  sendAll(packets: Packet[]): void {
    if (this.closed || packets.length === 0) return;
    this.lastWriteAt = Date.now();
    this.socket.write(
      Buffer.concat(packets.map((packet) => mqttPacket.generate(packet, { protocolVersion: 5 }))),
    );
  }

  /** Stops reading: the broker's writes back up in TCP (nothing more is parsed meanwhile). */
  pause(): void {
    if (this.paused) return;
    this.paused = true;
    this.socket.pause();
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    // What was not read meanwhile says nothing about the broker's liveness.
    this.lastReadAt = Date.now();
    // Handing a packet over may pause again: the rest waits for the next resume.
    let next = 0;
    while (!this.paused && !this.closed && next < this.backlog.length)
      this.handlers.packet(this.backlog[next++]!, this);
    this.backlog = next === this.backlog.length ? [] : this.backlog.slice(next);
    if (!this.paused && !this.closed) this.socket.resume();
  }

  /** Sends `last` (a DISCONNECT) when given, then closes; resolves once the socket is closed. */
  end(last?: Packet): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.socket.once('close', () => resolve());
      if (last) this.send(last);
      this.socket.end();
      // A broker that does not close its side in time: the socket goes anyway.
      setTimeout(() => this.socket.destroy(), 2000).unref();
    });
  }

  /** Drops the connection at once (the broker keeps the session and what is unacknowledged). */
  destroy(error?: Error): void {
    this.socket.destroy(error);
  }

  /**
   * PINGREQ when nothing was written for most of the keepalive (the broker closes a connection
   * silent for 1.5 times it); the connection is given up when nothing came back for 1.5 times it
   * while reading (a paused link reads nothing, its PINGRESP included).
   */
  private startKeepalive(): void {
    if (this.keepaliveMs <= 0) return;
    this.keepaliveTimer = setInterval(
      () => {
        const now = Date.now();
        if (!this.paused && this.pingSent && now - this.lastReadAt > this.keepaliveMs * 1.5)
          return void this.socket.destroy(new Error('MQTT keepalive: no answer from the broker'));
        if (now - this.lastWriteAt >= this.keepaliveMs * 0.75) {
          this.lastWriteAt = now;
          this.pingSent = true;
          this.socket.write(PINGREQ);
        }
      },
      Math.max(250, this.keepaliveMs / 4),
    );
    this.keepaliveTimer.unref();
  }

  private stopKeepalive(): void {
    clearInterval(this.keepaliveTimer);
  }
}
