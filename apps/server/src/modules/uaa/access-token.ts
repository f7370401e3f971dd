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

  async verify(token: string): Promise<VerifyResult> {
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
      };
    } catch (error) {
      return { ok: false, reason: error instanceof errors.JWTExpired ? 'expired' : 'invalid' };
    }
  }
}
