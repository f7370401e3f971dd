import crypto from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';

/** What an access token says about its bearer. */
export interface AccessClaims {
  userId: string;
  username: string;
  tenantId: string;
  tenantCode: string;
  roles: string[];
  sessionId: string;
  clientId: string;
}

export type VerifyResult =
  { ok: true; claims: AccessClaims } | { ok: false; reason: 'expired' | 'invalid' };

const ISSUER = 'shuili';
/** Verified tokens remembered (about 1 KB each): far more than the signed-in users of a node. */
const VERIFIED_CACHE_SIZE = 10_000;

/** Short-lived HS256 JWTs; the session id inside lets logout and admins revoke them. */
export class AccessTokens {
  private readonly key: Uint8Array;

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  sign(claims: AccessClaims, ttlSeconds: number): Promise<string> {
    return new SignJWT({
      tid: claims.tenantId,
      tc: claims.tenantCode,
      un: claims.username,
      roles: claims.roles,
      sid: claims.sessionId,
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.userId)
      .setIssuer(ISSUER)
      .setAudience(claims.clientId)
      .setJti(crypto.randomUUID())
      .setIssuedAt()
      .setExpirationTime(`${ttlSeconds}s`)
      .sign(this.key);
  }

  /**
   * Tokens already verified, with their expiry (s): a token's signature and claims cannot change,
   * so checking them again on every request (an HMAC through WebCrypto) only spends CPU. Expiry
   * is still checked on every use, as jose does; revocation is the session check's job.
   */
  private readonly verified = new Map<string, { claims: AccessClaims; exp: number }>();

  async verify(token: string): Promise<VerifyResult> {
    const known = this.verified.get(token);
    if (known) {
      if (known.exp > Math.floor(Date.now() / 1000))
        return { ok: true, claims: { ...known.claims, roles: [...known.claims.roles] } };
      this.verified.delete(token);
      return { ok: false, reason: 'expired' };
    }
    const result = await this.verifyToken(token);
    if (result.ok && result.exp !== undefined) {
      // Bounded: the oldest entry leaves first (a Map iterates in insertion order).
      if (this.verified.size >= VERIFIED_CACHE_SIZE)
        this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, { claims: result.claims, exp: result.exp });
      return { ok: true, claims: { ...result.claims, roles: [...result.claims.roles] } };
    }
    return result.ok ? { ok: true, claims: result.claims } : result;
  }

  private async verifyToken(
    token: string,
  ): Promise<
    { ok: true; claims: AccessClaims; exp?: number } | { ok: false; reason: 'expired' | 'invalid' }
  > {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: ISSUER,
        algorithms: ['HS256'],
      });
      const { sub, tid, tc, un, roles, sid, aud } = payload as Record<string, unknown>;
      if (
        typeof sub !== 'string' ||
        typeof tid !== 'string' ||
        typeof tc !== 'string' ||
        typeof un !== 'string' ||
        typeof sid !== 'string' ||
        typeof aud !== 'string' ||
        !Array.isArray(roles)
      ) {
        return { ok: false, reason: 'invalid' };
      }
      return {
        ok: true,
        claims: {
          userId: sub,
          tenantId: tid,
          tenantCode: tc,
          username: un,
          roles: roles.map(String),
          sessionId: sid,
          clientId: aud,
        },
        exp: payload.exp,
      };
    } catch (error) {
      return { ok: false, reason: error instanceof errors.JWTExpired ? 'expired' : 'invalid' };
    }
  }
}
