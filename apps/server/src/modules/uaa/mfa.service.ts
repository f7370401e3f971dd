import crypto from 'node:crypto';
import type { Database, Sql } from '../../db/database';
import { AppError, oauthError, tooManyRequests } from '../../http/app-error';
import { mfaRepo, type UserTotpRow } from './mfa.repo';
import { RATE_RULES, type RateLimitService } from './rate-limit.service';
import type { SecretBox } from './secret-box';
import { matchTotp, newTotpSecret, otpauthUrl } from './totp';

/** How long an enrolment ticket (handed out instead of a session) stays good. */
export const ENROLMENT_TICKET_SECONDS = 600;
export const RECOVERY_CODE_COUNT = 10;

export type MfaPolicy = 'optional' | 'required';

export interface MfaStatus {
  enabled: boolean;
  required: boolean;
  policy: MfaPolicy;
  recoveryCodesLeft: number;
}

export interface Enrolment {
  secret: string;
  otpauthUrl: string;
}

/** A recovery code: 10 base32 characters (50 bits) shown as xxxxx-xxxxx. */
function newRecoveryCode(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const bytes = crypto.randomBytes(10);
  const chars = [...bytes].map((byte) => alphabet[byte % alphabet.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

const normalizeRecovery = (code: string) => code.trim().toLowerCase().replace(/[\s-]/g, '');

const wrongCode = (field = 'totpCode') =>
  new AppError(400, 'auth.totpInvalid', {
    fields: [{ field, key: 'auth.totpInvalid' }],
    oauthError: 'invalid_grant',
  });

/**
 * The TOTP second factor (RFC 6238): who must use it, enrolment, and checking codes. A code is
 * accepted once (its time step is remembered), guesses are rate-limited per account, and a
 * recovery code works once in place of a code.
 */
export class MfaService {
  constructor(
    private readonly db: Database,
    private readonly box: SecretBox,
    private readonly rateLimits: RateLimitService,
  ) {}

  /** The platform tenant's administrators always; everyone in a tenant whose policy says so. */
  async isRequired(sql: Sql, userId: string): Promise<boolean> {
    const policy = await mfaRepo.policyOf(sql, userId);
    if (!policy) return false;
    return policy.mfa_policy === 'required' || (policy.is_platform && policy.is_admin);
  }

  async status(userId: string): Promise<MfaStatus> {
    return this.db.system(async (sql) => {
      const row = await mfaRepo.find(sql, userId);
      const policy = await mfaRepo.policyOf(sql, userId);
      return {
        enabled: Boolean(row?.confirmed_at),
        required: await this.isRequired(sql, userId),
        policy: (policy?.mfa_policy ?? 'optional') as MfaPolicy,
        recoveryCodesLeft: row?.confirmed_at ? row.recovery_hashes.length : 0,
      };
    });
  }

  /**
   * The sign-in gate, after the first factor succeeded: passes a user who needs no second
   * factor, checks the code of one who has it (recovery codes too), confirms the pending
   * enrolment of one who must enrol (answering the new recovery codes), and otherwise refuses
   * with mfa_required or mfa_enrollment_required (the latter with an enrolment ticket).
   */
  async gate(
    user: { id: string; tenant_id: string },
    code: string | undefined,
  ): Promise<{ recoveryCodes?: string[] }> {
    const { row, required } = await this.db.system(async (sql) => ({
      row: await mfaRepo.find(sql, user.id),
      required: await this.isRequired(sql, user.id),
    }));
    if (row?.confirmed_at) {
      if (!code) throw oauthError(401, 'mfa_required', 'auth.mfaRequired');
      await this.verify(user.id, code);
      return {};
    }
    if (!required) return {};
    if (code && row) return { recoveryCodes: await this.confirm(user.id, code) };
    throw new AppError(401, 'auth.mfaEnrollmentRequired', {
      oauthError: 'mfa_enrollment_required',
      extra: {
        mfa_ticket: this.ticket(user.id, user.tenant_id),
        expires_in: ENROLMENT_TICKET_SECONDS,
      },
    });
  }

  /** Checks a code (or a recovery code) of a confirmed enrolment; throws when it is wrong. */
  async verify(userId: string, code: string, field = 'totpCode'): Promise<void> {
    await this.throttle(userId);
    const ok = await this.db.system(async (sql) => {
      const row = await mfaRepo.find(sql, userId, true);
      if (!row?.confirmed_at) return false;
      const step = matchTotp(this.box.open(row.secret_box), code.trim(), Number(row.last_step));
      if (step !== undefined) {
        await mfaRepo.useStep(sql, userId, step);
        return true;
      }
      const hash = this.box.digest(normalizeRecovery(code));
      if (!row.recovery_hashes.includes(hash)) return false;
      await mfaRepo.useRecoveryCode(sql, userId, hash);
      return true;
    });
    if (!ok) throw wrongCode(field);
    await this.rateLimits.reset(`mfa:${userId}`);
  }

  /** A new secret for a user who has none confirmed (an earlier pending one is replaced). */
  async startEnrolment(user: {
    id: string;
    tenantId: string;
    tenantCode: string;
    username: string;
  }): Promise<Enrolment> {
    const secret = newTotpSecret();
    const saved = await this.db.system((sql) =>
      mfaRepo.savePending(sql, user.id, user.tenantId, this.box.seal(secret)),
    );
    if (!saved) throw new AppError(409, 'account.mfaAlreadyOn');
    return { secret, otpauthUrl: otpauthUrl(secret, user.tenantCode, user.username) };
  }

  /**
   * Confirms a pending enrolment with its first code; answers the one-time recovery codes.
   * `within` runs in the same transaction once confirmed (the profile ends other sessions there).
   */
  confirm(
    userId: string,
    code: string,
    field = 'totpCode',
    within?: (sql: Sql) => Promise<void>,
  ): Promise<string[]> {
    return this.issueRecoveryCodes(
      userId,
      code,
      field,
      (row) =>
        !row ? 'wrong' : row.confirmed_at ? new AppError(409, 'account.mfaAlreadyOn') : undefined,
      async (sql, step, hashes) => {
        await mfaRepo.confirm(sql, userId, step, hashes);
        await within?.(sql);
      },
    );
  }

  /**
   * New recovery codes for a confirmed enrolment, against a code of the authenticator itself (a
   * recovery code does not renew the others); every earlier recovery code stops working.
   */
  renewRecoveryCodes(userId: string, code: string, field = 'code'): Promise<string[]> {
    return this.issueRecoveryCodes(
      userId,
      code,
      field,
      (row) => (row?.confirmed_at ? undefined : new AppError(409, 'account.mfaOff')),
      (sql, step, hashes) => mfaRepo.replaceRecoveryCodes(sql, userId, step, hashes),
    );
  }

  /**
   * Checks an authenticator code against the user's secret (the row locked) and, when it
   * matches, stores a new set of recovery codes with `store`; answers the codes. `refuse` says
   * why the row cannot take them ('wrong': as a wrong code would), if it cannot.
   */
  private async issueRecoveryCodes(
    userId: string,
    code: string,
    field: string,
    refuse: (row: UserTotpRow | undefined) => AppError | 'wrong' | undefined,
    store: (sql: Sql, step: number, hashes: string[]) => Promise<void>,
  ): Promise<string[]> {
    await this.throttle(userId);
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    const refusal = await this.db.system(async (sql) => {
      const row = await mfaRepo.find(sql, userId, true);
      const refused = refuse(row);
      if (refused || !row) return refused ?? 'wrong';
      const step = matchTotp(this.box.open(row.secret_box), code.trim(), Number(row.last_step));
      if (step === undefined) return 'wrong';
      await store(
        sql,
        step,
        codes.map((one) => this.box.digest(normalizeRecovery(one))),
      );
      return undefined;
    });
    if (refusal === 'wrong') throw wrongCode(field);
    if (refusal) throw refusal;
    await this.rateLimits.reset(`mfa:${userId}`);
    return codes;
  }

  /**
   * Turns the second factor off (the caller checked password and code); refused when required.
   * `within` runs in the same transaction once it is off.
   */
  async disable(userId: string, within?: (sql: Sql) => Promise<void>): Promise<void> {
    await this.db.system(async (sql) => {
      if (await this.isRequired(sql, userId))
        throw new AppError(409, 'account.mfaRequiredByPolicy');
      await mfaRepo.remove(sql, userId);
      await within?.(sql);
    });
  }

  /** Counts a code attempt first, so parallel guesses are cut off too. */
  private async throttle(userId: string): Promise<void> {
    const wait = await this.rateLimits.attempt(`mfa:${userId}`, RATE_RULES.mfaAttempts);
    if (wait > 0) throw tooManyRequests(wait);
  }

  /** An enrolment ticket: user, tenant and expiry under the server key's MAC. */
  ticket(userId: string, tenantId: string): string {
    const expires = Math.floor(Date.now() / 1000) + ENROLMENT_TICKET_SECONDS;
    const body = `${userId}.${tenantId}.${expires}`;
    return Buffer.from(`${body}.${this.box.digest(`ticket:${body}`)}`).toString('base64url');
  }

  /** The user a ticket was issued to, or a 400 naming the field. */
  readTicket(ticket: string): { userId: string; tenantId: string } {
    const invalid = () =>
      new AppError(400, 'auth.mfaTicketInvalid', {
        fields: [{ field: 'ticket', key: 'auth.mfaTicketInvalid' }],
      });
    const text = Buffer.from(ticket, 'base64url').toString('utf8');
    const [userId, tenantId, expires, mac] = text.split('.');
    if (!userId || !tenantId || !expires || !mac) throw invalid();
    const expected = this.box.digest(`ticket:${userId}.${tenantId}.${expires}`);
    if (
      mac.length !== expected.length ||
      !crypto.timingSafeEqual(Buffer.from(mac), Buffer.from(expected)) ||
      Number(expires) < Math.floor(Date.now() / 1000)
    ) {
      throw invalid();
    }
    return { userId, tenantId };
  }
}
