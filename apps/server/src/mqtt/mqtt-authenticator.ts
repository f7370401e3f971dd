import { BROWSER_CLIENT_PREFIX, parseDeviceIdentity } from '@shuili/contract';
import type { AccessTokens } from '../modules/uaa/access-token';
import type { BrowserAccess } from './browser-access';
import type { MqttPrincipal } from './mqtt-principal';

/**
 * Checks a device's secret (CredentialService.verify): the device and credential it belongs
 * to, which the connection stays bound to, or undefined when refused.
 */
export interface DeviceSecretVerifier {
  verify(
    tenantCode: string,
    deviceNo: string,
    secret: string,
  ): Promise<{ deviceId: string; credentialId: string } | undefined>;
}

/** CONNACK return codes of MQTT 3.1.1 §3.2.2.3 that a refusal uses. */
export const CONNACK = {
  identifierRejected: 2,
  badUsernameOrPassword: 4,
  notAuthorized: 5,
} as const;

export type AuthResult =
  | {
      ok: true;
      principal: MqttPrincipal;
      /** Browsers: the account the token was issued to (external brokers name users by it). */
      account?: string;
      /** Browsers: how long until their session ends by itself (idle or absolute end). */
      sessionEndsInMs?: number;
    }
  | { ok: false; returnCode: (typeof CONNACK)[keyof typeof CONNACK] };

const BROWSER_CLIENT_ID = /^web:([a-z][a-z0-9_-]*):([A-Za-z0-9_.-]{1,100})$/;

/** Who a connection says it is, from its client id and username alone (before any secret). */
export type ClaimedIdentity =
  | { kind: 'device'; tenantCode: string; deviceNo: string }
  | { kind: 'browser'; tenantCode: string }
  | { kind: 'refused'; returnCode: (typeof CONNACK)[keyof typeof CONNACK] };

/**
 * A device's identity is both its username and its client id: it cannot borrow another client
 * id (and so take over a session). A browser's client id is `web:{tenantCode}:{random}`. The
 * embedded broker checks this at CONNECT; the external broker's ACL hook names the client by it.
 */
export function claimedIdentity(clientId: string, username: string | undefined): ClaimedIdentity {
  if (clientId.startsWith(BROWSER_CLIENT_PREFIX)) {
    const match = BROWSER_CLIENT_ID.exec(clientId);
    return match
      ? { kind: 'browser', tenantCode: match[1]! }
      : { kind: 'refused', returnCode: CONNACK.identifierRejected };
  }
  const identity = username ? parseDeviceIdentity(username) : undefined;
  if (!identity) return { kind: 'refused', returnCode: CONNACK.badUsernameOrPassword };
  if (clientId !== username) return { kind: 'refused', returnCode: CONNACK.identifierRejected };
  return { kind: 'device', ...identity };
}

/**
 * Who may connect: a device with its own identity as username and client id and its secret as
 * password; a browser with a `web:{tenantCode}:...` client id and a live access token of that
 * tenant as password (the same checks as the HTTP guard: signature, expiry, session alive,
 * tenant active, and the user's live grants and zones for what it may receive).
 */
export class MqttAuthenticator {
  constructor(
    private readonly deps: {
      tokens: AccessTokens;
      devices: DeviceSecretVerifier;
      browsers: BrowserAccess;
    },
  ) {}

  async authenticate(
    clientId: string,
    username: string | undefined,
    password: Buffer | undefined,
  ): Promise<AuthResult> {
    const secret = password?.toString('utf8') ?? '';
    const claimed = claimedIdentity(clientId, username);
    if (claimed.kind === 'refused') return { ok: false, returnCode: claimed.returnCode };
    if (claimed.kind === 'browser') return this.browser(claimed.tenantCode, secret);
    if (!secret || secret.length > 256)
      return { ok: false, returnCode: CONNACK.badUsernameOrPassword };
    const { tenantCode, deviceNo } = claimed;
    const bound = await this.deps.devices.verify(tenantCode, deviceNo, secret);
    return bound
      ? { ok: true, principal: { kind: 'device', tenantCode, deviceNo, ...bound } }
      : { ok: false, returnCode: CONNACK.badUsernameOrPassword };
  }

  private async browser(tenantCode: string, token: string): Promise<AuthResult> {
    if (!token || token.length > 4096)
      return { ok: false, returnCode: CONNACK.badUsernameOrPassword };
    const verified = await this.deps.tokens.verify(token);
    if (!verified.ok) return { ok: false, returnCode: CONNACK.badUsernameOrPassword };
    const claims = verified.claims;
    if (claims.tenantCode !== tenantCode) return { ok: false, returnCode: CONNACK.notAuthorized };
    const allowed = await this.deps.browsers.filterFor(claims);
    if (!allowed) return { ok: false, returnCode: CONNACK.badUsernameOrPassword };
    return {
      ok: true,
      principal: {
        kind: 'browser',
        tenantCode: claims.tenantCode,
        tenantId: claims.tenantId,
        userId: claims.userId,
        sessionId: claims.sessionId,
        live: allowed.filter,
      },
      account: claims.username,
      sessionEndsInMs: allowed.sessionEndsInMs,
    };
  }
}
