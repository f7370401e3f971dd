import { DEFAULT_BROWSER_CLIENT_SECRET } from '@shuili/contract';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_MAP_TILE_URL, mapTileSource } from './http/map-tiles';
import { consumerAddress } from './mqtt/consumer-url';
import { snapshotHosts, streamOrigins } from './http/video-sources';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The repository root, three levels above apps/server/src. */
export const REPO_ROOT = path.resolve(here, '../../..');

/** Every setting of the server, read from the environment once, with its default. */
export interface Config {
  port: number;
  host: string;
  /** Where PGlite keeps its files when no DATABASE_URL is set. */
  dataDir: string;
  databaseUrl: string | undefined;
  /**
   * Where uploaded files live (FILE_STORAGE): `database` (tables every node shares; the default
   * with DATABASE_URL) or `disk` (DATA_DIR/files, this node's own; the default on PGlite).
   */
  fileStorage: 'database' | 'disk';
  /** An external broker (MQTT 5, shared subscriptions) instead of the embedded one. */
  mqttUrl: string | undefined;
  /** TCP port of the embedded broker; 0 picks a free one (tests). */
  mqttPort: number;
  /** PEM files of the embedded broker's TLS listener; both set turns it on. */
  mqttTlsCert: string | undefined;
  mqttTlsKey: string | undefined;
  mqttTlsPort: number;
  /**
   * Broker URLs devices are told to use (comma-separated MQTT_PUBLIC_URLS), when the addresses
   * the server derives from the request (its host, MQTT_PORT, /mqtt) are not what devices reach.
   */
  mqttPublicUrls: string[];
  /**
   * External broker only: connections per node sharing the device topics (MQTT_CONSUMERS). Each
   * keeps a window of messages in flight (below), so one or two carry a node; each is one
   * persistent session on the broker.
   */
  mqttConsumers: number;
  /**
   * External broker only: unacknowledged QoS 1 messages the broker may send one consumer
   * connection at once (MQTT_CONSUMER_WINDOW, MQTT 5 receive maximum; 1 to 65535). Each is
   * stored as it comes and acknowledged once stored; also how many uplinks a connection has
   * being stored before it stops reading (QoS 0).
   */
  mqttConsumerWindow: number;
  /** External broker only: the shared-subscription group of the nodes of one deployment. */
  mqttShareGroup: string;
  /**
   * External broker only: this node's name in its MQTT client ids (MQTT_NODE_ID; default host
   * name and PORT). It must stay the same across restarts, so that a restarted node takes its
   * own persistent sessions back, and differ between nodes.
   */
  mqttNodeId: string;
  /**
   * External broker only: how long the broker keeps a node's consumer sessions (and the
   * readings queued for them) while the node is away (MQTT_SESSION_EXPIRY_SECONDS; 0: clean
   * sessions, nothing kept).
   */
  mqttSessionExpirySeconds: number;
  /**
   * External broker only: on a graceful stop, leave the share group and end the sessions
   * (MQTT_LEAVE_ON_STOP) instead of keeping them for this node's return. For a node removed
   * for good while other nodes keep consuming.
   */
  mqttLeaveOnStop: boolean;
  /**
   * External broker only: the server's own MQTT identity (MQTT_USERNAME / MQTT_PASSWORD, or the
   * user info of MQTT_URL). The broker's HTTP auth hooks grant it the consumer's rights.
   */
  mqttUsername: string | undefined;
  mqttPassword: string | undefined;
  /**
   * Shared secret an external broker sends to the HTTP auth hooks (/api/iot/mqtt/...); while it
   * is unset those hooks refuse everything.
   */
  mqttAuthSecret: string | undefined;
  /** HS256 key for access tokens; when unset the server generates one and keeps it in the database. */
  jwtSecret: string | undefined;
  accessTokenSeconds: number;
  refreshTokenSeconds: number;
  /** A session ends this long after sign-in however often it is refreshed. */
  sessionMaxSeconds: number;
  /** A session not used for this long ends (0: never for idleness). */
  sessionIdleSeconds: number;
  /** Secret of the first-party `browser` OAuth client (spec: fixed Basic credentials). */
  browserClientSecret: string;
  demoPasswords: {
    admin: string;
    operator: string;
    cashier: string;
    acmeAdmin: string;
    platformAdmin: string;
  };
  seedDemo: boolean;
  /**
   * Days of simulated history the demo district starts with (DEMO_HISTORY_DAYS, default 30; 0:
   * none): its charts, reports and water delivered show something at first sight.
   */
  demoHistoryDays: number;
  /**
   * The demo's wells start with two weeks of card sessions (DEMO_CARD_SESSIONS, default on),
   * uploaded and posted as their controllers would have.
   */
  demoCardSessions: boolean;
  /** `npm start` runs a light simulation of the demo tenant's devices (SIM=0 turns it off). */
  simulate: boolean;
  /** Serve the built SPA from this folder (empty: API only). */
  webDist: string;
  /**
   * Which X-Forwarded-For entries to believe: false (none), a hop count, or the proxies'
   * addresses/CIDRs. Never "all": the left-most entry is whatever the client wrote.
   */
  trustProxy: false | number | string;
  logLevel: string;
  /** Secure flag on cookies the server sets (always on for requests that arrived over https). */
  secureCookies: boolean;
  /** Write development SMS / e-mail (codes included) to the log as well as the outbox table. */
  logOutbox: boolean;
  /**
   * The console's address as its users reach it (PUBLIC_URL, no trailing slash): the origin of
   * links in e-mails (password reset). Never taken from a request's Host header, which whoever
   * asks for a reset link could choose to send the victim's link to their own site.
   */
  publicUrl: string;
  /**
   * The device map's tile server as a Leaflet URL template (MAP_TILE_URL; default OpenStreetMap).
   * The console's Content-Security-Policy allows images from exactly this server.
   */
  mapTileUrl: string;
  /**
   * Origins the console may play camera streams from besides its own (VIDEO_STREAM_ORIGINS,
   * comma-separated): the Content-Security-Policy's connect-src and media-src name exactly these.
   */
  videoStreamOrigins: string[];
  /**
   * Hosts, addresses or CIDRs on private networks the server may fetch camera snapshots from
   * (VIDEO_SNAPSHOT_HOSTS); every other private, loopback or link-local address is refused.
   */
  videoSnapshotHosts: string[];
  /**
   * Port of the service desks' card-reading service on their own machines (CARD_READER_PORT,
   * default 17820; 0: none). The console connects to ws://127.0.0.1 on it, and the
   * Content-Security-Policy's connect-src allows exactly that port on 127.0.0.1 and localhost.
   */
  cardReaderPort: number;
  /**
   * How long a scheduler node's claim of a run holds without renewal (SCHEDULER_LEASE_MS,
   * default 60 s): a node killed mid-run has its runs taken over by another this long after.
   */
  schedulerLeaseMs: number;
  /** A failed run's first retry delay, doubled per attempt (SCHEDULER_RETRY_BASE_MS, 5 s). */
  schedulerRetryBaseMs: number;
  /**
   * Hosts, addresses or CIDRs on private networks a job's webhook may call
   * (JOB_WEBHOOK_HOSTS); every other private, loopback or link-local address is refused.
   */
  jobWebhookHosts: string[];
}

function int(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

function bool(name: string, fallback: boolean): boolean {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  return ['1', 'true', 'yes', 'on'].includes(raw.toLowerCase());
}

function trustProxy(): false | number | string {
  const raw = process.env.TRUST_PROXY?.trim();
  if (!raw || raw === 'false' || raw === '0') return false;
  if (/^\d+$/.test(raw)) return Number(raw);
  if (raw === 'true') {
    throw new Error(
      "TRUST_PROXY=true would let clients choose their own address: give a hop count or the proxies' addresses",
    );
  }
  return raw;
}

/** User info of MQTT_URL (mqtt.js would use it too), so the auth hooks know the server's identity. */
function urlCredential(url: string | undefined, part: 'username' | 'password'): string | undefined {
  if (!url) return undefined;
  try {
    return decodeURIComponent(new URL(url)[part]) || undefined;
  } catch {
    return undefined;
  }
}

function mqttUsername(): string | undefined {
  const value = process.env.MQTT_USERNAME || urlCredential(process.env.MQTT_URL, 'username');
  // Device identities are `{tenant}:{deviceNo}`: the server's must never parse as one.
  if (value && (value.includes(':') || value.length > 64))
    throw new Error('MQTT_USERNAME must be at most 64 characters without ":"');
  return value;
}

/** The consumers speak MQTT over TCP or TLS (windowed-consumer.ts), not over WebSocket. */
function mqttUrl(): string | undefined {
  const value = process.env.MQTT_URL || undefined;
  if (value !== undefined && !consumerAddress(value))
    throw new Error(
      `MQTT_URL must be an mqtt:// or mqtts:// URL (the server consumes over TCP or TLS, not WebSocket), got "${value}"`,
    );
  return value;
}

function mqttConsumerWindow(): number {
  const value = int('MQTT_CONSUMER_WINDOW', 4000);
  if (value < 1 || value > 65535)
    throw new Error(`MQTT_CONSUMER_WINDOW must be 1 to 65535, got "${value}"`);
  return value;
}

/** Client ids are `shuili-{node}-{role}`: plain characters, never a device's `tenant:device`. */
function mqttNodeId(port: number): string {
  const value =
    process.env.MQTT_NODE_ID || `${os.hostname()}-${port}`.replace(/[^A-Za-z0-9._-]/g, '-');
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(value))
    throw new Error('MQTT_NODE_ID must be 1 to 64 letters, digits, ".", "_" or "-"');
  return value;
}

function mqttAuthSecret(): string | undefined {
  const value = process.env.MQTT_AUTH_SECRET || undefined;
  if (value !== undefined && value.length < 16)
    throw new Error('MQTT_AUTH_SECRET must be at least 16 characters');
  return value;
}

/** An http(s) origin, optionally with a path prefix; checked at start. */
function publicUrl(port: number): string {
  const raw = process.env.PUBLIC_URL?.trim() || `http://localhost:${port}`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`PUBLIC_URL must be an http(s) URL, got "${raw}"`);
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.search || url.hash || url.username)
    throw new Error(`PUBLIC_URL must be an http(s) URL without query or credentials, got "${raw}"`);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/** Checked at start (mapTileSource throws for a template the CSP could not follow). */
function mapTileUrl(): string {
  const value = process.env.MAP_TILE_URL?.trim() || DEFAULT_MAP_TILE_URL;
  mapTileSource(value);
  return value;
}

/** FILE_STORAGE, else the database wherever several nodes may share one (PostgreSQL). */
function fileStorage(databaseUrl: string | undefined): 'database' | 'disk' {
  const raw = process.env.FILE_STORAGE?.trim().toLowerCase();
  if (!raw) return databaseUrl ? 'database' : 'disk';
  if (raw !== 'database' && raw !== 'disk')
    throw new Error(`FILE_STORAGE must be "database" or "disk", got "${raw}"`);
  return raw;
}

/** The card-reading service's port (packages/card-reader's default); 0 turns it off. */
function cardReaderPort(): number {
  const value = int('CARD_READER_PORT', 17820);
  if (value > 65535) throw new Error(`CARD_READER_PORT must be a port number, got "${value}"`);
  return value;
}

export function loadConfig(overrides: Partial<Config> = {}): Config {
  const env = process.env;
  return {
    port: int('PORT', 8080),
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || path.join(REPO_ROOT, 'data')),
    databaseUrl: env.DATABASE_URL || undefined,
    fileStorage: fileStorage(env.DATABASE_URL || undefined),
    mqttUrl: mqttUrl(),
    mqttPort: int('MQTT_PORT', 1883),
    mqttTlsCert: env.MQTT_TLS_CERT || undefined,
    mqttTlsKey: env.MQTT_TLS_KEY || undefined,
    mqttTlsPort: int('MQTT_TLS_PORT', 8883),
    mqttPublicUrls: (env.MQTT_PUBLIC_URLS ?? '')
      .split(',')
      .map((url) => url.trim())
      .filter(Boolean),
    mqttConsumers: Math.max(1, int('MQTT_CONSUMERS', 2)),
    mqttConsumerWindow: mqttConsumerWindow(),
    mqttShareGroup: env.MQTT_SHARE_GROUP || 'shuili',
    mqttNodeId: mqttNodeId(int('PORT', 8080)),
    // MQTT's session expiry is 32 bits; 0xffffffff would mean "never".
    mqttSessionExpirySeconds: Math.min(int('MQTT_SESSION_EXPIRY_SECONDS', 3600), 0xfffffffe),
    mqttLeaveOnStop: bool('MQTT_LEAVE_ON_STOP', false),
    mqttUsername: mqttUsername(),
    mqttPassword: env.MQTT_PASSWORD || urlCredential(env.MQTT_URL, 'password'),
    mqttAuthSecret: mqttAuthSecret(),
    jwtSecret: env.JWT_SECRET || undefined,
    accessTokenSeconds: int('ACCESS_TOKEN_SECONDS', 900),
    refreshTokenSeconds: int('REFRESH_TOKEN_SECONDS', 7 * 24 * 3600),
    sessionMaxSeconds: int('SESSION_MAX_SECONDS', 30 * 24 * 3600),
    sessionIdleSeconds: int('SESSION_IDLE_SECONDS', 1800),
    browserClientSecret: env.BROWSER_CLIENT_SECRET || DEFAULT_BROWSER_CLIENT_SECRET,
    demoPasswords: {
      admin: env.DEMO_ADMIN_PASSWORD || 'admin123',
      operator: env.DEMO_OPERATOR_PASSWORD || 'operator123',
      cashier: env.DEMO_CASHIER_PASSWORD || 'cashier123',
      acmeAdmin: env.ACME_ADMIN_PASSWORD || 'admin123',
      platformAdmin: env.PLATFORM_ADMIN_PASSWORD || 'admin123',
    },
    seedDemo: bool('SEED_DEMO', true),
    demoHistoryDays: Math.min(int('DEMO_HISTORY_DAYS', 30), 365),
    demoCardSessions: bool('DEMO_CARD_SESSIONS', true),
    simulate: bool('SIM', true),
    webDist: env.WEB_DIST ?? path.join(REPO_ROOT, 'apps/web/dist'),
    trustProxy: trustProxy(),
    logLevel: env.LOG_LEVEL || 'info',
    secureCookies: bool('SECURE_COOKIES', false),
    logOutbox: bool('LOG_OUTBOX', env.NODE_ENV !== 'production'),
    publicUrl: publicUrl(int('PORT', 8080)),
    mapTileUrl: mapTileUrl(),
    videoStreamOrigins: streamOrigins(env.VIDEO_STREAM_ORIGINS),
    videoSnapshotHosts: snapshotHosts(env.VIDEO_SNAPSHOT_HOSTS),
    cardReaderPort: cardReaderPort(),
    schedulerLeaseMs: Math.max(1000, int('SCHEDULER_LEASE_MS', 60_000)),
    schedulerRetryBaseMs: Math.max(100, int('SCHEDULER_RETRY_BASE_MS', 5_000)),
    jobWebhookHosts: snapshotHosts(env.JOB_WEBHOOK_HOSTS),
    ...overrides,
  };
}
