import type { EntityContext, EntityHooks } from '../../entity/entity-hooks';
import type { Row } from '../../entity/entity-repo';
import { AppError } from '../../http/app-error';
import { hashNewPassword } from '../account/password-policy';

async function revokeSessions(ctx: EntityContext, userIds: string[], reason: string) {
  await ctx.sql.query(
    `UPDATE user_session SET revoked_at = now(), revoke_reason = $2
      WHERE user_id = ANY($1::bigint[]) AND revoked_at IS NULL`,
    [userIds, reason],
  );
}

function requireRoles(values: Row, creating: boolean) {
  const roles = values.roleIds;
  if ((creating || roles !== undefined) && (!Array.isArray(roles) || roles.length === 0)) {
    throw new AppError(400, 'validation.required', {
      fields: [{ field: 'roleIds', key: 'validation.required' }],
    });
  }
}

/**
 * Users: passwords are stored hashed, a user always holds a role (spec §5), and a user who is
 * disabled or deleted is signed out everywhere at once. Nobody disables or deletes themselves.
 */
export const userHooks: EntityHooks = {
  async beforeCreate(ctx, values) {
    requireRoles(values, true);
    values.password = await hashNewPassword(String(values.password), {
      field: 'password',
      username: values.username as string | undefined,
      tenantCode: ctx.auth.tenantCode,
    });
  },
  async beforeUpdate(ctx, id, values) {
    requireRoles(values, false);
    if (id === ctx.auth.userId && values.status === 0)
      throw new AppError(409, 'conflict.notYourself');
  },
  async afterUpdate(ctx, id, values) {
    if (values.status === 0) await revokeSessions(ctx, [id], 'user_disabled');
  },
  async afterStatus(ctx, ids, status) {
    if (status !== 0) return;
    if (ids.includes(ctx.auth.userId)) throw new AppError(409, 'conflict.notYourself');
    await revokeSessions(ctx, ids, 'user_disabled');
  },
  async beforeDelete(ctx, ids) {
    if (ids.includes(ctx.auth.userId)) throw new AppError(409, 'conflict.notYourself');
  },
};
