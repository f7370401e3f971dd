import crypto from 'node:crypto';
import { RESET_LINK, translate, type Lang, type ResetLinkAccount } from '@shuili/contract';
import type { Database } from '../../db/database';
import { AppError, tooManyRequests } from '../../http/app-error';
import type { Notifier } from '../notify/notifier';
import { tenantNameIn, type TenantRow } from '../uaa/identity.repo';
import { hashPassword } from '../uaa/password-hasher';
import { clientKey, RATE_RULES, type RateLimitService } from '../uaa/rate-limit.service';
import type { TokenService } from '../uaa/token.service';
import { checkNewPassword } from './password-policy';

/** An account with a given e-mail address. */
export interface AddressAccount {
  userId: string;
  tenantId: string;
  tenantCode: string;
  username: string;
  email: string;
  tenant: Pick<TenantRow, 'tenant_name' | 'tenant_name_i18n'>;
}

/** The account a password is set for, after a code or a link proved the mailbox. */
export interface ResetAccount {
  id: string;
  tenant_id: string;
}

const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

/**
 * 160 random bits written as decimal digits: the outbox's production log masks digits, so the
 * token stays out of logs as the codes do.
 */
function newToken(): string {
  return BigInt(`0x${crypto.randomBytes(20).toString('hex')}`)
    .toString()
    .padStart(49, '0');
}

const invalidLink = () =>
  new AppError(400, 'auth.resetLinkInvalid', {
    fields: [{ field: 'token', key: 'auth.resetLinkInvalid' }],
  });

/**
 * One-time password-reset links (spec §7 retrievePassword with email and charCaptcha): a link
 * per account of the address, valid 30 minutes, used once; only a hash of its token is stored.
 * The link's origin is the configured public URL, never the request's Host header, which whoever
 * asks for the link chooses.
 */
export class PasswordResetLinks {
  constructor(
    private readonly deps: {
      db: Database;
      notifier: Notifier;
      tokenService: TokenService;
      rateLimits: RateLimitService;
      publicUrl: string;
    },
  ) {}

  /** The accounts with this address (any letter case): in one tenant, or in every tenant. */
  async accountsOf(email: string, tenantCode?: string): Promise<AddressAccount[]> {
    const { rows } = await this.deps.db.system((sql) =>
      sql.query<AddressAccount & Pick<TenantRow, 'tenant_name' | 'tenant_name_i18n'>>(
        `SELECT u.id::text AS "userId", u.tenant_id::text AS "tenantId", t.tenant_code AS "tenantCode",
                u.username, u.email, t.tenant_name, t.tenant_name_i18n
           FROM sys_user u JOIN tenant t ON t.id = u.tenant_id
          WHERE lower(u.email) = lower($1) AND ($2::text IS NULL OR t.tenant_code = $2)
          ORDER BY t.tenant_code, u.id`,
        [email, tenantCode ?? null],
      ),
    );
    return rows.map((row) => ({ ...row, tenant: row }));
  }

  /**
   * Counts a link send like a code send (one a minute per address, the client's cap shared
   * with codes); 429 when over.
   */
  async countSend(email: string, ip: string): Promise<void> {
    const wait = await this.deps.rateLimits.attempt(
      `reset-link-to:${email.toLowerCase()}`,
      RATE_RULES.captchaSendsPerRecipient,
    );
    if (wait > 0) throw tooManyRequests(wait, 'auth.resetLinkTooSoon');
    const locked = await this.deps.rateLimits.attempt(
      `captcha-ip:${clientKey(ip)}`,
      RATE_RULES.captchaSendsPerIp,
    );
    if (locked > 0) throw tooManyRequests(locked);
  }

  /** E-mails one message with a link per account (they share the address), in `lang`. */
  async send(accounts: readonly AddressAccount[], lang: Lang, ip: string): Promise<void> {
    if (accounts.length === 0) return;
    const lines: string[] = [];
    for (const account of accounts) {
      const token = newToken();
      await this.deps.db.system((sql) =>
        sql.query(
          `INSERT INTO password_reset_link (tenant_id, user_id, token_hash, ip, expires_at)
           VALUES ($1, $2, $3, $4, now() + make_interval(mins => $5))`,
          [account.tenantId, account.userId, hashToken(token), ip, RESET_LINK.minutes],
        ),
      );
      const link = `${this.deps.publicUrl}${RESET_LINK.path}?${RESET_LINK.param}=${token}`;
      lines.push(
        translate(lang, 'resetLink.account', {
          tenantName: tenantNameIn(account.tenant, lang),
          tenantCode: account.tenantCode,
          username: account.username,
          link,
        }),
      );
    }
    await this.deps.notifier.send({
      channel: 'email',
      recipient: accounts[0]!.email,
      subject: translate(lang, 'resetLink.subject'),
      body: [
        translate(lang, 'resetLink.intro', { minutes: RESET_LINK.minutes }),
        ...lines,
        translate(lang, 'resetLink.ignore'),
      ].join('\n\n'),
    });
  }

  /** The account of a live link (neither used nor expired); 400 naming `token` otherwise. */
  async inspect(token: string, lang: Lang): Promise<ResetLinkAccount> {
    const { rows } = await this.deps.db.system((sql) =>
      sql.query<
        { tenant_code: string; username: string; expires_at: Date } & Pick<
          TenantRow,
          'tenant_name' | 'tenant_name_i18n'
        >
      >(
        `SELECT t.tenant_code, t.tenant_name, t.tenant_name_i18n, u.username, l.expires_at
           FROM password_reset_link l JOIN sys_user u ON u.id = l.user_id JOIN tenant t ON t.id = l.tenant_id
          WHERE l.token_hash = $1 AND l.used_at IS NULL AND l.expires_at > now()`,
        [hashToken(token)],
      ),
    );
    const row = rows[0];
    if (!row) throw invalidLink();
    return {
      tenantCode: row.tenant_code,
      tenantName: tenantNameIn(row, lang),
      username: row.username,
      expiresAt: new Date(row.expires_at).toISOString(),
    };
  }

  /**
   * Sets the new password through a live link and burns it (with every other link of the
   * account). The password policy is checked before the link is used up, so a refused password
   * does not cost the link; of two uses at once only one gets through.
   */
  async redeem(token: string, newPassword: string, lang: Lang): Promise<void> {
    const account = await this.inspect(token, lang);
    checkNewPassword(newPassword, {
      field: 'newPassword',
      username: account.username,
      tenantCode: account.tenantCode,
    });
    const passwordHash = await hashPassword(newPassword);
    const used = await this.deps.db.system(async (sql) => {
      const { rows } = await sql.query<ResetAccount>(
        `UPDATE password_reset_link SET used_at = now()
          WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
          RETURNING user_id::text AS id, tenant_id::text AS tenant_id`,
        [hashToken(token)],
      );
      const user = rows[0];
      if (user)
        await sql.query(
          'UPDATE password_reset_link SET used_at = now() WHERE user_id = $1 AND used_at IS NULL',
          [user.id],
        );
      return user;
    });
    if (!used) throw invalidLink();
    await this.setPassword(used, passwordHash);
  }

  /**
   * Puts a reset password in place (code or link): every session of the account ends and its
   * sign-in failures are forgotten.
   */
  async setPassword(user: ResetAccount, passwordHash: string): Promise<void> {
    await this.deps.tokenService.setPassword(user.id, passwordHash, 'password_reset');
    await this.deps.rateLimits.reset(`login:${user.tenant_id}:${user.id}`);
  }
}
