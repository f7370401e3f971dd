import type { Sql } from '../../db/database';

export interface UserTotpRow {
  user_id: string;
  tenant_id: string;
  secret_box: string;
  confirmed_at: Date | null;
  last_step: string;
  recovery_hashes: string[];
}

/** The user_totp table (system transactions: sign-in reads it before any tenant context). */
export const mfaRepo = {
  async find(sql: Sql, userId: string, lock = false): Promise<UserTotpRow | undefined> {
    const { rows } = await sql.query<UserTotpRow>(
      `SELECT user_id::text, tenant_id::text, secret_box, confirmed_at, last_step::text, recovery_hashes
         FROM user_totp WHERE user_id = $1${lock ? ' FOR UPDATE' : ''}`,
      [userId],
    );
    return rows[0];
  },

  /** Starts (or restarts) an enrolment with a new secret; a confirmed one is never replaced. */
  async savePending(
    sql: Sql,
    userId: string,
    tenantId: string,
    secretBox: string,
  ): Promise<boolean> {
    const { rows } = await sql.query(
      `INSERT INTO user_totp (user_id, tenant_id, secret_box) VALUES ($1, $2, $3)
       ON CONFLICT (user_id) DO UPDATE SET secret_box = $3, last_step = 0, recovery_hashes = '{}', created_at = now()
         WHERE user_totp.confirmed_at IS NULL
       RETURNING user_id`,
      [userId, tenantId, secretBox],
    );
    return rows.length > 0;
  },

  async confirm(sql: Sql, userId: string, step: number, recoveryHashes: string[]): Promise<void> {
    await sql.query(
      'UPDATE user_totp SET confirmed_at = now(), last_step = $2, recovery_hashes = $3 WHERE user_id = $1',
      [userId, step, recoveryHashes],
    );
  },

  /** New recovery codes (hashes) in place of every earlier one, with the step that allowed it. */
  async replaceRecoveryCodes(
    sql: Sql,
    userId: string,
    step: number,
    recoveryHashes: string[],
  ): Promise<void> {
    await sql.query(
      'UPDATE user_totp SET last_step = $2, recovery_hashes = $3 WHERE user_id = $1',
      [userId, step, recoveryHashes],
    );
  },

  async useStep(sql: Sql, userId: string, step: number): Promise<void> {
    await sql.query('UPDATE user_totp SET last_step = $2 WHERE user_id = $1', [userId, step]);
  },

  async useRecoveryCode(sql: Sql, userId: string, hash: string): Promise<void> {
    await sql.query(
      'UPDATE user_totp SET recovery_hashes = array_remove(recovery_hashes, $2) WHERE user_id = $1',
      [userId, hash],
    );
  },

  /** Removes the user's second factor; answers whether one was on (confirmed). */
  async remove(sql: Sql, userId: string): Promise<boolean> {
    const { rows } = await sql.query<{ confirmed: boolean }>(
      'DELETE FROM user_totp WHERE user_id = $1 RETURNING confirmed_at IS NOT NULL AS confirmed',
      [userId],
    );
    return rows.some((row) => row.confirmed);
  },

  /** Role codes and tenant policy: what decides whether a user must use a second factor. */
  async policyOf(
    sql: Sql,
    userId: string,
  ): Promise<{ mfa_policy: string; is_platform: boolean; is_admin: boolean } | undefined> {
    const { rows } = await sql.query<{
      mfa_policy: string;
      is_platform: boolean;
      is_admin: boolean;
    }>(
      `SELECT t.mfa_policy, t.is_platform,
              EXISTS (SELECT 1 FROM sys_user_role ur JOIN sys_role r ON r.id = ur.role_id
                       WHERE ur.user_id = u.id AND r.role_code = 'ROLE_ADMIN') AS is_admin
         FROM sys_user u JOIN tenant t ON t.id = u.tenant_id WHERE u.id = $1`,
      [userId],
    );
    return rows[0];
  },
};
