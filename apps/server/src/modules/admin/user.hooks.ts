import type { EntityContext, EntityHooks } from '../../entity/entity-hooks';
import type { Row } from '../../entity/entity-repo';
import { AppError } from '../../http/app-error';
import { checkManageable, checkScopeGiven } from './scope-confinement';
import { hashNewPassword } from '../account/password-policy';
import { addressChanges, readAddresses } from '../account/recovery-change';

async function revokeSessions(ctx: EntityContext, userIds: string[], reason: string) {
  await ctx.sql.query(
    `UPDATE user_session SET revoked_at = now(), revoke_reason = $2
      WHERE user_id = ANY($1::bigint[]) AND revoked_at IS NULL`,
    [userIds, reason],
  );
}

/**
 * One's own e-mail and mobile change only in the profile, where the password is asked: through
 * the user editor, a stolen administrator's token alone would take over the account's recovery.
 */
async function refuseOwnAddressChange(ctx: EntityContext, values: Row) {
  if (values.email === undefined && values.mobile === undefined) return;
  const changes = addressChanges(await readAddresses(ctx.sql, ctx.auth.userId), {
    email: values.email as string | null | undefined,
    mobile: values.mobile as string | null | undefined,
  });
  if (changes.length === 0) return;
  throw new AppError(403, 'account.ownContactInProfile', {
    fields: changes.map((change) => ({
      field: change === 'emailChanged' ? 'email' : 'mobile',
      key: 'account.ownContactInProfile',
    })),
  });
}

function requireRoles(values: Row, creating: boolean) {
  const roles = values.roleIds;
  if ((creating || roles !== undefined) && (!Array.isArray(roles) || roles.length === 0)) {
    throw new AppError(400, 'validation.required', {
      fields: [{ field: 'roleIds', key: 'validation.required' }],
    });
  }
}

const idList = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

/** The user's zones and projects, when the call gives them: only within the caller's own. */
function checkScopesGiven(ctx: EntityContext, userId: string, values: Row, creating: boolean) {
  for (const scope of ['zoneIds', 'projectIds'] as const)
    if (creating || values[scope] !== undefined)
      checkScopeGiven(ctx.auth, scope, userId, idList(values[scope]));
}

/**
 * Users: passwords are stored hashed, a user always holds a role (spec §5), and a user who is
 * disabled or deleted is signed out everywhere at once. Nobody disables or deletes themselves,
 * and a caller confined to zones or projects manages only users confined within their own and
 * gives only zones and projects inside their own (scope-confinement.ts).
 */
export const userHooks: EntityHooks = {
  async beforeCreate(ctx, values) {
    requireRoles(values, true);
    checkScopesGiven(ctx, '', values, true);
    values.password = await hashNewPassword(String(values.password), {
      field: 'password',
      username: values.username as string | undefined,
      tenantCode: ctx.auth.tenantCode,
    });
  },
  async beforeUpdate(ctx, id, values) {
    requireRoles(values, false);
    await checkManageable(ctx.sql, ctx.auth, [id]);
    checkScopesGiven(ctx, id, values, false);
    if (id === ctx.auth.userId && values.status === 0)
      throw new AppError(409, 'conflict.notYourself');
    if (id === ctx.auth.userId) await refuseOwnAddressChange(ctx, values);
  },
  async afterUpdate(ctx, id, values) {
    if (values.status === 0) await revokeSessions(ctx, [id], 'user_disabled');
  },
  async afterStatus(ctx, ids, status) {
    await checkManageable(ctx.sql, ctx.auth, ids);
    if (status !== 0) return;
    if (ids.includes(ctx.auth.userId)) throw new AppError(409, 'conflict.notYourself');
    await revokeSessions(ctx, ids, 'user_disabled');
  },
  async beforeDelete(ctx, ids) {
    if (ids.includes(ctx.auth.userId)) throw new AppError(409, 'conflict.notYourself');
    await checkManageable(ctx.sql, ctx.auth, ids);
  },
};
