import type { UplinkChannel } from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/database';
import type { AccessTokens } from '../modules/uaa/access-token';
import type { BrowserAccess } from './browser-access';
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
  /**
   * The device the connection authenticated as (embedded broker; the external one does not say
   * which connection sent a message). Ingestion refuses the uplink with DeviceIdentityEndedError
   * when the identity now names another device or none.
   */
  deviceId?: string;
}

/** A device came online or went offline, as the broker saw its connection (or its status). */
export interface Presence {
  tenantCode: string;
  deviceNo: string;
  online: boolean;
  at: number;
  /** As in Uplink: the connection's device, when the broker knows it. */
  deviceId?: string;
}

/**
 * A device identity that ended (db/device-notify.sql announces it): the device was deleted or got
 * another number (every connection of the device ends), or one secret was revoked or rotated
 * (`credentialId`: the connections made with that secret end). The identity is absent when it
 * could not be read any more (a device removed with its tenant).
 */
export interface EndedDeviceIdentity {
  tenantId: string;
  deviceId: string;
  credentialId?: string;
  tenantCode?: string;
  deviceNo?: string;
}

/**
 * An uplink handler's refusal of a connection whose identity ended (its device was deleted or
 * renumbered, maybe with the number reused since): the transport ends the connection and passes
 * nothing of it on, whatever its QoS.
 */
export class DeviceIdentityEndedError extends Error {
  constructor(identity: string) {
    super(`device identity ${identity} ended: its connection is closed`);
    this.name = 'DeviceIdentityEndedError';
  }
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
  /** External mode: uplinks this node stored and acknowledged since it started, adopted ones too. */
  uplinksStored?: number;
  /** External mode: sessions of lost peers this node consumes now (session-adoption.ts). */
  adoptedSessions?: number;
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
  /**
   * Sends a command to a device on its `.../cmd` topic. Given the device's id, a connection
   * under that identity that belongs to another (ended) device is closed first, never sent it.
   */
  publishToDevice(
    tenantCode: string,
    deviceNo: string,
    payload: Buffer | string,
    qos: 0 | 1,
    deviceId?: string,
  ): Promise<void>;
  /** Pushes to the browsers subscribed to a live topic (`liveTopics` of the contract). */
  publishLive(topic: string, payload: Buffer | string): Promise<void>;
  /** Whether the device holds a connection now (external mode: as its retained status says). */
  isConnected(tenantCode: string, deviceNo: string): boolean;
  /** Ends the connections of an identity that ended (device deleted or renumbered, secret revoked). */
  disconnectDevice(ended: EndedDeviceIdentity): void;
  /**
   * Ends the device connections whose secret no longer works (`live` answers which of the given
   * credential ids still do), when announcements of ended identities may have been missed.
   */
  recheckDevices(live: (credentialIds: string[]) => Promise<ReadonlySet<string>>): Promise<void>;
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
  /** What each browser may receive, and when that changes (live grants, zones, sessions). */
  browsers: BrowserAccess;
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
