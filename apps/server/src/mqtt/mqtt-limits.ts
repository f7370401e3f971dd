import { MAX_PAYLOAD_BYTES } from '@shuili/contract';

/**
 * Limits of the embedded broker. Each protects the one process every tenant shares from a
 * single misbehaving client (DESIGN §1: the broker lives in the API process).
 */
export const MQTT_LIMITS = {
  /** The contract's payload ceiling (a day of catch-up readings fits; a firmware image does not). */
  maxPayloadBytes: MAX_PAYLOAD_BYTES,
  /**
   * A whole MQTT packet: the payload plus its topic, properties and header. Anything larger is
   * cut off at the socket before the parser buffers it.
   */
  maxPacketBytes: MAX_PAYLOAD_BYTES + 4096,
  /** Our deepest topic is t/{tenant}/d/{device}/cmd/ack (6 levels); 8 leaves room, 100 is aedes' default. */
  maxTopicLevels: 8,
  /**
   * Messages aedes routes at once. A frozen subscriber holds a slot until drainTimeout, so this
   * must comfortably exceed the number of slow browsers we expect at one moment.
   */
  concurrency: 1000,
  /** Packets buffered per client before its session is set up (auth takes a database read). */
  queueLimit: 100,
  /** Inbound QoS 2 messages awaiting PUBREL per client; devices use QoS 1, so a few suffice. */
  maxInflightInbound: 20,
  /** A socket that has not sent CONNECT after this long is a scanner or a stuck device. */
  connectTimeoutMs: 10_000,
  /**
   * Keep-alive a client may ask for, in seconds. Zero (never) is refused: a device behind a
   * mobile NAT that vanishes would look online forever. 20 minutes covers battery devices that
   * sleep between readings.
   */
  maxKeepaliveSeconds: 1200,
  /**
   * Live copies waiting to be written to one browser. Past this, further copies to it are skipped
   * (they are QoS 0 views of stored data; the page's next value supersedes them): a browser that
   * reads slowly must never hold back the devices whose messages it is sent (aedes waits for a
   * full subscriber before it reads the publisher's next packet).
   */
  liveBufferBytes: 2 * 1024 * 1024,
  /** A browser tab or device that stops reading for this long is dropped rather than stalling others. */
  drainTimeoutMs: 15_000,
  /** Connections per node; beyond this the node answers "server unavailable" and devices retry elsewhere. */
  maxClients: 20_000,
  /** A verified device secret is trusted this long before the database is asked again. */
  credentialCacheMs: 60_000,
  /** How often the sessions of connected browsers are checked (a signed-out user is dropped). */
  sessionSweepMs: 60_000,
} as const;
