import { ROLE_ADMIN } from '@shuili/contract';
import type { Sql } from '../../db/database';
import { AppError, forbidden } from '../../http/app-error';
import type { AuthContext } from '../../http/request-context';
import { identityRepo } from '../uaa/identity.repo';

/** Whose menu or posts a call is about, and the role whose menu they see. */
export interface NamedUser {
  userId: string;
  role: string;
}

/** What a call may name the user by (spec §7 switch menu: username, userId). */
export interface UserNames {
  userId?: string;
  username?: string;
}

const missing = (field: string) =>
  new AppError(400, 'validation.refMissing', {
    fields: [{ field, key: 'validation.refMissing' }],
  });

async function idByUsername(sql: Sql, username: string): Promise<string | undefined> {
  // Usernames are unique per tenant whatever their letter case (sys_user_username).
  const { rows } = await sql.query<{ id: string }>(
    'SELECT id::text AS id FROM sys_user WHERE lower(username) = lower($1)',
    [username],
  );
  return rows[0]?.id;
}

/**
 * The user a call names (spec §7: "a user may only name themselves unless they are an
 * administrator"). Naming nobody, or only oneself, is the caller with their active role. Naming
 * anyone else takes ROLE_ADMIN as the active role (403 otherwise, whether or not that user
 * exists); the named user must be of the caller's tenant (`sql` runs in it: row-level security
 * hides every other) and is seen with the role they act as by default after signing in, their
 * first enabled role, ROLE_ADMIN first (identityRepo.roleCodes, as the guard picks it). A user
 * without an enabled role gets an empty menu. Runs in the caller's tenant context.
 */
export async function namedUser(sql: Sql, auth: AuthContext, names: UserNames): Promise<NamedUser> {
  const { userId, username } = names;
  const isSelf =
    (!userId || userId === auth.userId) &&
    (!username || username.toLowerCase() === auth.username.toLowerCase());
  if (isSelf) return { userId: auth.userId, role: auth.activeRole };
  if (auth.activeRole !== ROLE_ADMIN) throw forbidden('auth.notYourself');

  let id: string | undefined;
  if (userId) {
    const { rows } = await sql.query('SELECT 1 FROM sys_user WHERE id = $1', [userId]);
    if (rows.length === 0) throw missing('userId');
    id = userId;
  }
  if (username) {
    const byName = await idByUsername(sql, username);
    if (!byName) throw missing('username');
    if (id && id !== byName)
      throw new AppError(400, 'validation.usersDiffer', {
        fields: [{ field: 'username', key: 'validation.usersDiffer' }],
      });
    id = byName;
  }
  const named = id!;
  const roles = await identityRepo.roleCodes(sql, named);
  return { userId: named, role: roles[0] ?? '' };
}
