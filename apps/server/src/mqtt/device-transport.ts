import type { UplinkChannel } from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/database';
import type { AccessTokens } from '../modules/uaa/access-token';
import { EmbeddedTransport } from './embedded-transport';
import { ExternalTransport } from './external-transport';
import type { DeviceSecretVerifier } from './mqtt-authenticator';

/** A message a device sent up, as the server hands it to ingestion. */
export interface Uplink {
  tenantCode: string;
  deviceNo: string;
  channel: UplinkChannel;
  payload: Buffer;
  /** Milliseconds since the epoch when this node received it. */
  receivedAt: number;
}

/** A device came online or went offline, as the broker saw its connection (or its status). */
export interface Presence {
  tenantCode: string;
  deviceNo: string;
  online: boolean;
  at: number;
}

/**
 * Where the broker listens, for telling devices how to connect (tcpPort / tlsPort are absent
 * when that listener is not running, e.g. the TCP port was taken).
 */
export interface TransportEndpoints {
  tcpPort?: number;
  tlsPort?: number;
  /** The WebSocket path on the HTTP server (browsers and devices behind HTTP-only networks). */
  wsPath: string;
  /** External mode: the broker devices connect to. */
  externalUrl?: string;
}

/** What /api/health says of the broker: external mode counts this node's shared-subscription consumers. */
export interface TransportState {
  kind: 'embedded' | 'external';
  state: 'up' | 'partial' | 'down';
  consumers?: number;
  consumersConnected?: number;
}

/**
 * The one way the rest of the server talks to devices and pushes to browsers (docs/iot.md),
 * whether the broker is embedded (aedes) or external (MQTT 5 with shared subscriptions).
 */
export interface DeviceTransport {
  /**
   * The handler of every accepted uplink. Its promise resolving means "stored": only then does
   * a QoS 1 message get its PUBACK. A rejection withholds the PUBACK, so the device sends it
   * again (embedded: its connection is closed and it resends on reconnect; external: retried).
   */
  onUplink(handler: (uplink: Uplink) => Promise<void>): void;
  onPresence(handler: (presence: Presence) => void | Promise<void>): void;
  /** Sends a command to a device on its `.../cmd` topic. */
  publishToDevice(
    tenantCode: string,
    deviceNo: string,
    payload: Buffer | string,
    qos: 0 | 1,
  ): Promise<void>;
  /** Pushes to the browsers subscribed to a live topic (`liveTopics` of the contract). */
  publishLive(topic: string, payload: Buffer | string): Promise<void>;
  /** Whether the device holds a connection now (external mode: as its retained status says). */
  isConnected(tenantCode: string, deviceNo: string): boolean;
  /** Ends a device's connection (its secret was revoked or rotated). */
  disconnectDevice(tenantCode: string, deviceNo: string): void;
  endpoints(): TransportEndpoints;
  /** The broker's state now (for /api/health). */
  state(): TransportState;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface DeviceTransportDeps {
  db: Database;
  tokens: AccessTokens;
  devices: DeviceSecretVerifier;
}

/** The embedded broker by default, the external one when MQTT_URL is set (DESIGN §1). */
export function createDeviceTransport(
  config: Config,
  app: FastifyInstance,
  deps: DeviceTransportDeps,
): DeviceTransport {
  return config.mqttUrl
    ? new ExternalTransport(config, app, deps)
    : new EmbeddedTransport(config, app, deps);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Devices and live pushes (app.ts creates it; iot.module.ts and the simulator use it). */
    deviceTransport: DeviceTransport;
  }
}
