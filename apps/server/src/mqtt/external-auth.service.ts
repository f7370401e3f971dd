import crypto from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { BROWSER_CLIENT_PREFIX } from '@shuili/contract';
import type { Config } from '../config';
import type { AccessTokens } from '../modules/uaa/access-token';
import type { BrowserAccess } from './browser-access';
import {
  MqttAuthenticator,
  claimedIdentity,
  type DeviceSecretVerifier,
} from './mqtt-authenticator';
import type { MqttPrincipal } from './mqtt-principal';
import { mayPublish, mayReceive, maySubscribe } from './topic-acl';

/** What a broker asks about: EMQX's publish / subscribe, mosquitto-go-auth's acc 1-4. */
export type BrokerAccess = 'publish' | 'subscribe' | 'read' | 'readwrite';

export interface ExternalAuthDeps {
  config: Pick<Config, 'mqttUsername' | 'mqttPassword' | 'mqttAuthSecret'>;
  tokens: AccessTokens;
  devices: DeviceSecretVerifier;
  browsers: BrowserAccess;
}

const digest = (value: string) => crypto.createHash('sha256').update(value, 'utf8').digest();
/** Compares digests, so neither the length nor the content of a secret leaks through timing. */
const sameSecret = (expected: Buffer, offered: string) =>
  crypto.timingSafeEqual(expected, digest(offered));

/**
 * Our device authentication and topic ACL for an external broker (Mosquitto with
 * mosquitto-go-auth, EMQX), through its HTTP hooks: the same MqttAuthenticator and topic-acl
 * functions the embedded broker runs, plus the server's own identity (its consumers, relay and
 * watcher need every tenant's topics) and the shared secret that proves the caller is the broker.
 * Browsers are refused there: they connect to a node's `/mqtt`, which ends their connection with
 * their session and gives each only what its user's grants and zones allow, message by message
 * (an external broker can do neither: it would not hear a session end, and EMQX checks no
 * delivery).
 */
export class ExternalAuthService {
  private readonly authenticator: MqttAuthenticator;
  private readonly secret: Buffer | undefined;
  private readonly serverPassword: Buffer | undefined;

  constructor(private readonly deps: ExternalAuthDeps) {
    this.authenticator = new MqttAuthenticator(deps);
    const { mqttAuthSecret, mqttUsername, mqttPassword } = deps.config;
    this.secret = mqttAuthSecret ? digest(mqttAuthSecret) : undefined;
    this.serverPassword = mqttUsername && mqttPassword ? digest(mqttPassword) : undefined;
  }

  /** Whether MQTT_AUTH_SECRET is set (the hooks refuse everything until it is). */
  get configured(): boolean {
    return this.secret !== undefined;
  }

  /**
   * Whether the request comes from the broker: MQTT_AUTH_SECRET in `x-mqtt-auth-secret`, as a
   * bearer token, or as the password of Basic auth (mosquitto-go-auth sends the user info of its
   * `http_host`). Never true while the secret is unset.
   */
  fromBroker(headers: IncomingHttpHeaders): boolean {
    const expected = this.secret;
    if (!expected) return false;
    const offered: string[] = [];
    const header = headers['x-mqtt-auth-secret'];
    if (typeof header === 'string') offered.push(header);
    const authorization = headers.authorization ?? '';
    const [scheme = '', value = ''] = authorization.split(' ', 2);
    if (scheme.toLowerCase() === 'bearer') offered.push(value.trim());
    if (scheme.toLowerCase() === 'basic') {
      const decoded = Buffer.from(value.trim(), 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon >= 0) offered.push(decoded.slice(colon + 1));
    }
    // Every candidate is compared, so the answer takes as long whichever one matches.
    return offered.map((candidate) => sameSecret(expected, candidate)).includes(true);
  }

  /** CONNECT: the server's identity or a device's own secret (never a browser: see above). */
  async authenticate(clientId: string, username: string, password: string): Promise<boolean> {
    if (this.isServerName(username)) {
      // The server connects under its own ids, and under a device's id to end that device's
      // session when its secret is revoked (ExternalTransport.disconnectDevice).
      const expected = this.serverPassword;
      return (
        expected !== undefined &&
        sameSecret(expected, password) &&
        !clientId.startsWith(BROWSER_CLIENT_PREFIX)
      );
    }
    if (clientId.startsWith(BROWSER_CLIENT_PREFIX)) return false;
    const result = await this.authenticator.authenticate(
      clientId,
      username || undefined,
      Buffer.from(password, 'utf8'),
    );
    return result.ok && result.principal.kind === 'device';
  }

  /** mosquitto-go-auth's superuser check (it then skips the ACL): the server's identity only. */
  isSuperuser(username: string): boolean {
    return this.isServerName(username) && this.serverPassword !== undefined;
  }

  /** PUBLISH / SUBSCRIBE / delivery: the topic ACL for the client the broker names. */
  async authorize(
    clientId: string,
    username: string,
    topic: string,
    access: BrokerAccess,
  ): Promise<boolean> {
    const principal = await this.principalOf(clientId, username);
    if (!principal) return false;
    switch (access) {
      case 'publish':
        return mayPublish(principal, topic);
      case 'subscribe':
        return maySubscribe(principal, topic);
      case 'read':
        return mayReceive(principal, topic);
      case 'readwrite':
        return mayReceive(principal, topic) && mayPublish(principal, topic);
    }
  }

  /** The client as the broker names it (it authenticated at CONNECT through this service). */
  private async principalOf(
    clientId: string,
    username: string,
  ): Promise<MqttPrincipal | undefined> {
    if (this.isServerName(username))
      return this.isSuperuser(username) && !clientId.startsWith(BROWSER_CLIENT_PREFIX)
        ? { kind: 'server' }
        : undefined;
    const claimed = claimedIdentity(clientId, username || undefined);
    return claimed.kind === 'device' ? claimed : undefined;
  }

  private isServerName(username: string): boolean {
    const server = this.deps.config.mqttUsername;
    return server !== undefined && username.toLowerCase() === server.toLowerCase();
  }
}
