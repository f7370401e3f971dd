import type { Database } from '../../db/database';
import { AppError, tooManyRequests } from '../../http/app-error';
import type { MfaService } from '../uaa/mfa.service';
import { verifyPassword } from '../uaa/password-hasher';
import { RATE_RULES, type RateLimitService } from '../uaa/rate-limit.service';

/**
 * Checks the signed-in user's current password before a change to their own account (a new
 * password, a new e-mail or mobile, turning the second factor on or off). The attempts share one
 * throttle, so guessing through any of these calls counts against all; a right password clears
 * it. A wrong one is a 400 naming `refusal.field`.
 */
export async function checkOwnPassword(
  deps: { db: Database; rateLimits: RateLimitService },
  auth: { userId: string; tenantId: string },
  password: string,
  refusal: { field: string; key: string },
): Promise<void> {
  const throttleKey = `password-change:${auth.userId}`;
  const wait = await deps.rateLimits.attempt(throttleKey, RATE_RULES.accountAttempts);
  if (wait > 0) throw tooManyRequests(wait);
  const { rows } = await deps.db.tenant(auth, (sql) =>
    sql.query<{ password_hash: string }>('SELECT password_hash FROM sys_user WHERE id = $1', [
      auth.userId,
    ]),
  );
  if (!(await verifyPassword(rows[0]?.password_hash, password)))
    throw new AppError(400, refusal.key, { fields: [{ field: refusal.field, key: refusal.key }] });
  await deps.rateLimits.reset(throttleKey);
}

/**
 * Proof that the person, not only their token, asks to change how the account is recovered
 * (e-mail, mobile, second factor): a stolen token must not be enough to take the account over.
 * The current password, or for a user who has a second factor a fresh code of it (or a recovery
 * code; codes have their own throttle). Neither: a 400 naming `currentPassword`.
 */
export async function checkOwnProof(
  deps: { db: Database; rateLimits: RateLimitService; mfa: Pick<MfaService, 'status' | 'verify'> },
  auth: { userId: string; tenantId: string },
  proof: { currentPassword?: string; totpCode?: string },
): Promise<void> {
  if (proof.currentPassword) {
    await checkOwnPassword(deps, auth, proof.currentPassword, {
      field: 'currentPassword',
      key: 'account.oldPasswordWrong',
    });
    return;
  }
  if (proof.totpCode && (await deps.mfa.status(auth.userId)).enabled) {
    await deps.mfa.verify(auth.userId, proof.totpCode, 'totpCode');
    return;
  }
  throw proofRequired();
}

/** The refusal of a change that takes proof (checkOwnProof) when none was sent. */
export const proofRequired = () =>
  new AppError(400, 'account.currentPasswordRequired', {
    fields: [{ field: 'currentPassword', key: 'account.currentPasswordRequired' }],
  });
