import {
  mobileGrantSchema,
  passwordGrantSchema,
  refreshGrantSchema,
  type TokenResponse,
} from '@shuili/contract';
import type { z } from 'zod';
import type { Database, Sql } from '../../db/database';
import { AppError, oauthError, tooManyRequests } from '../../http/app-error';
import { issuesToProblems } from '../../http/validation-problems';
import type { CaptchaService } from '../account/captcha.service';
import type { AccessTokens } from './access-token';
import type { ClientService, OAuthClient } from './client.service';
import { identityRepo, isTenantActive, type LoginUserRow, type TenantRow } from './identity.repo';
import {
  accountAttemptsKey,
  findSignInAccount,
  signInCodeDelivery,
  signInCodeRecipient,
  type SignInAccount,
} from './sign-in-account';
import { verifyPassword } from './password-hasher';
import { KeyedMutex } from './keyed-mutex';
import type { MfaService } from './mfa.service';
import { clientKey, RATE_RULES, type RateLimitService } from './rate-limit.service';
import { newRefreshToken, sessionRepo } from './session.repo';

export interface TokenRequest {
  params: Record<string, unknown>;
  authorization: string | undefined;
  refreshCookie: string | undefined;
  ip: string;
  userAgent: string | undefined;
}

function parse<S extends z.ZodType>(schema: S, params: Record<string, unknown>): z.infer<S> {
  const result = schema.safeParse(params);
  if (!result.success) {
    throw new AppError(400, 'validation.invalid', {
      fields: issuesToProblems(result.error.issues as never),
      oauthError: 'invalid_request',
    });
  }
  return result.data;
}

const invalidGrant = (key: string) => oauthError(400, 'invalid_grant', key);

/** The one-time recovery codes of an enrolment confirmed by this sign-in, shown once. */
const withRecoveryCodes = (token: TokenResponse, codes: string[] | undefined): TokenResponse =>
  codes ? { ...token, recovery_codes: codes } : token;

/** A rotated refresh token presented again within this many seconds is a race, not a theft. */
export const REFRESH_REUSE_GRACE_SECONDS = 30;

/** The OAuth 2.0 token endpoint: password, mobile (SMS code) and refresh_token grants. */
export class TokenService {
  private readonly accountTurns = new KeyedMutex();

  constructor(
    private readonly db: Database,
    private readonly clients: ClientService,
    private readonly tokens: AccessTokens,
    private readonly rateLimits: RateLimitService,
    private readonly captchas: CaptchaService,
    /** However often it is refreshed, a session ends this long after sign-in. */
    private readonly sessionMaxSeconds: number,
    private readonly mfa: MfaService,
    /** A session not used for this long ends (refresh included). */
    private readonly sessionIdleSeconds: number | null,
  ) {}

  async grant(request: TokenRequest): Promise<TokenResponse> {
    const client = await this.clients.authenticate(request.authorization);
    const grantType = request.params.grant_type;
    if (typeof grantType !== 'string' || grantType === '') {
      throw new AppError(400, 'validation.invalid', {
        fields: [{ field: 'grant_type', key: 'validation.required' }],
        oauthError: 'invalid_request',
      });
    }
    if (grantType !== 'password' && grantType !== 'mobile' && grantType !== 'refresh_token') {
      throw oauthError(400, 'unsupported_grant_type', 'auth.unsupportedGrant', {
        grant: grantType.slice(0, 40),
      });
    }
    // RFC 9700 §2.4: the password grant is only for the first-party console.
    if (
      !client.grantTypes.includes(grantType) ||
      (grantType === 'password' && !client.firstParty)
    ) {
      throw oauthError(400, 'unauthorized_client', 'auth.grantNotAllowed', { grant: grantType });
    }
    if (request.params.client_id !== undefined && request.params.client_id !== client.clientId) {
      throw oauthError(401, 'invalid_client', 'auth.clientInvalid');
    }
    switch (grantType) {
      case 'password':
        return this.passwordGrant(client, parse(passwordGrantSchema, request.params), request);
      case 'mobile':
        return this.mobileGrant(client, parse(mobileGrantSchema, request.params), request);
      default:
        return this.refreshGrant(client, parse(refreshGrantSchema, request.params), request);
    }
  }

  private checkScope(client: OAuthClient, scope: string) {
    if (!client.scopes.includes(scope))
      throw oauthError(400, 'invalid_scope', 'auth.invalidScope', { scope: scope.slice(0, 40) });
  }

  private async activeTenant(sql: Sql, tenantCode: string): Promise<TenantRow> {
    const tenant = await identityRepo.tenantByCode(sql, tenantCode);
    // Answered as a wrong code is: sign-in never tells which tenants exist.
    if (!tenant) throw invalidGrant('auth.captchaInvalid');
    if (!isTenantActive(tenant)) throw invalidGrant('auth.tenantInactive');
    return tenant;
  }

  private async passwordGrant(
    client: OAuthClient,
    input: z.infer<typeof passwordGrantSchema>,
    request: TokenRequest,
  ): Promise<TokenResponse> {
    this.checkScope(client, input.scope);
    const account = await this.db.system((sql) =>
      findSignInAccount(sql, input.tenantCode, input.username),
    );
    const accountKey = accountAttemptsKey(account);
    const source = clientKey(request.ip);
    const sourceKey = `login-from:${source}:${account.key}`;
    const ipKey = `login-ip:${source}`;
    const signedIn = await this.accountTurns.run(accountKey, async () => {
      // Counted before the password is checked, so a burst of parallel guesses is cut off too.
      // The address that guesses waits and is then refused; the account itself is never locked.
      const wait = await this.rateLimits.attempt(sourceKey, RATE_RULES.signInPerAccountAndIp);
      if (wait > 0) throw tooManyRequests(wait);
      const ipWait = await this.rateLimits.attempt(ipKey, RATE_RULES.ipAttempts);
      if (ipWait > 0) throw tooManyRequests(ipWait);
      // Tried from too many addresses, the account wants a code sent to its mobile or e-mail
      // before the password is even checked, so the answer says nothing about the password.
      const seenKey = `login-seen:${source}:${account.key}`;
      const newAddress =
        (await this.rateLimits.attempt(seenKey, RATE_RULES.signInAddressSeen)) === 0;
      const needsCode = newAddress
        ? (await this.rateLimits.attempt(accountKey, RATE_RULES.signInPerAccount)) > 0
        : (await this.rateLimits.lockedFor([accountKey])) > 0;
      if (needsCode) await this.checkSignInCode(account, input.captcha);
      const passwordOk = await verifyPassword(account.user?.password_hash, input.password);
      // An unknown tenant or user is answered as a wrong password is, in the same time.
      if (!account.tenant || !account.user || !passwordOk) throw invalidGrant('auth.wrongPassword');
      // This address counted once among the account's (now or earlier today): give it back.
      // Other addresses' failures stay counted, and a code once required stays so for the day.
      await this.rateLimits.refund(accountKey);
      await this.rateLimits.reset(seenKey);
      await this.rateLimits.reset(sourceKey);
      await this.rateLimits.refund(ipKey);
      return { tenant: account.tenant, user: account.user, needsCode };
    });
    if (!isTenantActive(signedIn.tenant)) throw invalidGrant('auth.tenantInactive');
    if (signedIn.user.status !== 1) throw invalidGrant('auth.userDisabled');
    const second = await this.mfa.gate(signedIn.user, input.totpCode);
    // Used up once every factor passed: asked for a second factor, the same code comes again.
    if (signedIn.needsCode) await this.checkSignInCode(account, input.captcha, true);
    const token = await this.issue(
      client,
      signedIn.tenant,
      signedIn.user,
      'password',
      input.scope,
      request,
    );
    return withRecoveryCodes(token, second.recoveryCodes);
  }

  /**
   * The code sent to the account's mobile or e-mail (getSignInCaptcha), asked for once the
   * account has had too many failed sign-ins. Wrong codes are not counted per account: the
   * guessing address is already slowed, and an attacker must not lock the owner's codes.
   */
  private async checkSignInCode(
    account: SignInAccount,
    code: string | undefined,
    consume = false,
  ): Promise<void> {
    if (!code) throw oauthError(401, 'captcha_required', 'auth.signInCodeRequired');
    const { channel } = await this.db.system((sql) => signInCodeDelivery(sql, account));
    const ok = await this.captchas.verify(
      channel,
      signInCodeRecipient(account),
      code,
      consume,
      false,
    );
    if (!ok) {
      throw new AppError(400, 'auth.captchaInvalid', {
        fields: [{ field: 'captcha', key: 'auth.captchaInvalid' }],
        oauthError: 'invalid_grant',
      });
    }
  }

  private async mobileGrant(
    client: OAuthClient,
    input: z.infer<typeof mobileGrantSchema>,
    request: TokenRequest,
  ): Promise<TokenResponse> {
    this.checkScope(client, input.scope);
    const { tenant, user } = await this.db.system(async (sql) => {
      const tenant = await this.activeTenant(sql, input.tenantCode);
      return { tenant, user: await identityRepo.userByMobile(sql, tenant.id, input.mobile) };
    });
    // The code is used up only once every factor passed: a user asked for a second factor
    // sends the same SMS code again with it.
    const codeOk = await this.captchas.verify('sms', input.mobile, input.smsCaptcha, false);
    if (!codeOk || !user) throw invalidGrant('auth.captchaInvalid');
    if (user.status !== 1) throw invalidGrant('auth.userDisabled');
    const second = await this.mfa.gate(user, input.totpCode);
    if (!(await this.captchas.verify('sms', input.mobile, input.smsCaptcha, true)))
      throw invalidGrant('auth.captchaInvalid');
    const token = await this.issue(client, tenant, user, 'mobile', input.scope, request);
    return withRecoveryCodes(token, second.recoveryCodes);
  }

  private async refreshGrant(
    client: OAuthClient,
    input: z.infer<typeof refreshGrantSchema>,
    request: TokenRequest,
  ): Promise<TokenResponse> {
    this.checkScope(client, input.scope);
    const presented = input.refresh_token ?? request.refreshCookie;
    if (!presented) {
      throw new AppError(400, 'validation.invalid', {
        fields: [{ field: 'refresh_token', key: 'validation.required' }],
        oauthError: 'invalid_request',
      });
    }
    const outcome = await this.db.system(async (sql) => {
      const row = await sessionRepo.findRefresh(sql, presented, {
        idleSeconds: this.sessionIdleSeconds,
        maxSeconds: this.sessionMaxSeconds,
      });
      if (!row || row.client_id !== client.clientId)
        return { error: 'auth.refreshInvalid' } as const;
      if (row.used_at) {
        // Two tabs refreshing at once, or a retry after a lost answer: refuse, but leave the
        // session alone (the other request holds its successor).
        if (row.used_seconds_ago < REFRESH_REUSE_GRACE_SECONDS)
          return { error: 'auth.refreshInvalid' } as const;
        // A rotated token came back later: someone holds a copy. End the whole session (RFC 9700 §4.14).
        await sessionRepo.revoke(sql, row.session_id, 'refresh_token_reuse');
        return { error: 'auth.refreshReused' } as const;
      }
      if (row.token_expired || row.session_revoked || row.session_expired || row.session_idle)
        return { error: 'auth.refreshInvalid' } as const;
      await sessionRepo.markUsed(sql, row.token_id);
      const tenant = await identityRepo.tenantById(sql, row.tenant_id);
      const user = await identityRepo.userById(sql, row.user_id);
      if (!tenant || !isTenantActive(tenant)) return { error: 'auth.tenantInactive' } as const;
      if (!user || user.status !== 1) return { error: 'auth.userDisabled' } as const;
      const refreshToken = newRefreshToken();
      await sessionRepo.addRefreshToken(
        sql,
        tenant.id,
        row.session_id,
        refreshToken,
        client.refreshTokenSeconds,
      );
      await sessionRepo.extend(
        sql,
        row.session_id,
        client.refreshTokenSeconds,
        this.sessionMaxSeconds,
      );
      const roles = await identityRepo.roleCodes(sql, user.id);
      return { tenant, user, roles, refreshToken, sessionId: row.session_id };
    });
    if ('error' in outcome) throw invalidGrant(outcome.error!);
    return this.respond(
      client,
      outcome.tenant,
      outcome.user,
      outcome.roles,
      outcome.sessionId,
      outcome.refreshToken,
      input.scope,
    );
  }

  private async issue(
    client: OAuthClient,
    tenant: TenantRow,
    user: LoginUserRow,
    grantType: string,
    scope: string,
    request: TokenRequest,
  ): Promise<TokenResponse> {
    const refreshToken = newRefreshToken();
    const { sessionId, roles } = await this.db.system(async (sql) => {
      const sessionId = await sessionRepo.create(
        sql,
        {
          tenantId: tenant.id,
          userId: user.id,
          clientId: client.clientId,
          grantType,
          ip: request.ip,
          userAgent: request.userAgent?.slice(0, 512),
          refreshSeconds: client.refreshTokenSeconds,
          maxSeconds: this.sessionMaxSeconds,
        },
        refreshToken,
      );
      return { sessionId, roles: await identityRepo.roleCodes(sql, user.id) };
    });
    return this.respond(client, tenant, user, roles, sessionId, refreshToken, scope);
  }

  private async respond(
    client: OAuthClient,
    tenant: TenantRow,
    user: LoginUserRow,
    roles: string[],
    sessionId: string,
    refreshToken: string,
    scope: string,
  ): Promise<TokenResponse> {
    const accessToken = await this.tokens.sign(
      {
        userId: user.id,
        username: user.username,
        tenantId: tenant.id,
        tenantCode: tenant.tenant_code,
        roles,
        sessionId,
        clientId: client.clientId,
      },
      client.accessTokenSeconds,
    );
    return {
      access_token: accessToken,
      token_type: 'bearer',
      refresh_token: refreshToken,
      expires_in: client.accessTokenSeconds,
      refresh_expires_in: client.refreshTokenSeconds,
      scope,
      tenantCode: tenant.tenant_code,
      jti: sessionId,
    };
  }

  /** Ends a session: its access tokens stop working at once and its refresh tokens with it. */
  async revokeSession(sessionId: string, reason: string): Promise<void> {
    await this.db.system((sql) => sessionRepo.revoke(sql, sessionId, reason));
  }

  /**
   * Sets a user's password and ends their sessions in the same transaction, all of them or all
   * but the one that asked: a changed password never leaves another session alive.
   */
  async setPassword(
    userId: string,
    passwordHash: string,
    reason: string,
    keepSessionId?: string,
  ): Promise<void> {
    await this.db.system(async (sql) => {
      await sql.query(
        'UPDATE sys_user SET password_hash = $2, password_changed_at = now(), updated_at = now() WHERE id = $1',
        [userId, passwordHash],
      );
      if (keepSessionId) await sessionRepo.revokeOthersOfUser(sql, userId, keepSessionId, reason);
      else await sessionRepo.revokeAllOfUser(sql, userId, reason);
    });
  }
}
