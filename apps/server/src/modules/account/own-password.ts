import type { Database } from '../../db/database';
import { AppError, tooManyRequests } from '../../http/app-error';
import { verifyPassword } from '../uaa/password-hasher';
import { RATE_RULES, type RateLimitService } from '../uaa/rate-limit.service';

/**
 * Checks the signed-in user's current password before a change to their own account (a new
 * password, turning the second factor off). The attempts share one throttle, so guessing
 * through either call counts against both; a right password clears it. A wrong one is a 400
 * naming `refusal.field`.
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
  const { rows } = await deps.db.tenant(auth.tenantId, (sql) =>
    sql.query<{ password_hash: string }>('SELECT password_hash FROM sys_user WHERE id = $1', [
      auth.userId,
    ]),
  );
  if (!(await verifyPassword(rows[0]?.password_hash, password)))
    throw new AppError(400, refusal.key, { fields: [{ field: refusal.field, key: refusal.key }] });
  await deps.rateLimits.reset(throttleKey);
}
