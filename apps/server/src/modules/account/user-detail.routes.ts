import { sysUserSchema, updatePasswordSchema, updateSysUserDetailSchema } from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/database';
import { isUniqueViolation } from '../../db/pg-errors';
import { AppError, forbidden } from '../../http/app-error';
import { envelopeOf, ok } from '../../http/envelope';
import { authOf } from '../../http/request-context';
import { hashPassword } from '../uaa/password-hasher';
import { checkOwnPassword } from './own-password';
import { checkNewPassword } from './password-policy';
import { readSysUser } from '../uaa/profile.repo';
import type { RateLimitService } from '../uaa/rate-limit.service';
import type { TokenService } from '../uaa/token.service';

export interface UserDetailDeps {
  db: Database;
  tokenService: TokenService;
  rateLimits: RateLimitService;
}

const conflictOn = (field: 'email' | 'mobile') =>
  new AppError(409, `conflict.${field}`, { fields: [{ field, key: `conflict.${field}` }] });

/** The signed-in user's own details and password (spec §7 "User detail"). */
export async function userDetailRoutes(fastify: FastifyInstance, deps: UserDetailDeps) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.put('/api/account/sysuserdetail/updateSysUserDetail', {
    config: { permission: 'authenticated' },
    schema: {
      tags: ['account'],
      summary: "Updates the caller's own nickname, contact details and profile",
      body: updateSysUserDetailSchema,
      response: { 200: envelopeOf(sysUserSchema) },
    },
    handler: async (request) => {
      const auth = authOf(request);
      const body = request.body;
      try {
        const user = await deps.db.tenant(auth.tenantId, async (sql) => {
          await sql.query(
            `UPDATE sys_user SET nickname = $2, email = $3, mobile = $4, geographic = $5, address = $6,
                    profile = $7, avatar = $8, updated_at = now()
              WHERE id = $1`,
            [
              auth.userId,
              body.nickname,
              body.email ?? null,
              body.mobile ?? null,
              body.geographic ?? null,
              body.address ?? null,
              body.profile ?? null,
              body.avatar ?? null,
            ],
          );
          return readSysUser(sql, auth.userId, auth.activeRole, request.lang);
        });
        return ok(user!);
      } catch (error) {
        if (isUniqueViolation(error, 'sys_user_email')) throw conflictOn('email');
        if (isUniqueViolation(error, 'sys_user_mobile')) throw conflictOn('mobile');
        throw error;
      }
    },
  });

  app.put('/api/account/sysuserdetail/updatePassword', {
    config: { permission: 'authenticated' },
    schema: {
      tags: ['account'],
      summary: "Changes the caller's password; every other session of the account ends",
      body: updatePasswordSchema,
      response: { 200: envelopeOf(z.null()) },
    },
    handler: async (request) => {
      const auth = authOf(request);
      const { id, newPassword } = request.body;
      const current = request.body.password ?? request.body.oldPassword ?? '';
      if (id !== auth.userId) throw forbidden('account.notYourself');
      checkNewPassword(newPassword, {
        field: 'newPassword',
        username: auth.username,
        tenantCode: auth.tenantCode,
      });
      await checkOwnPassword(deps, auth, current, {
        field: 'oldPassword',
        key: 'account.oldPasswordWrong',
      });
      await deps.tokenService.setPassword(
        auth.userId,
        await hashPassword(newPassword),
        'password_changed',
        auth.sessionId,
      );
      return ok(null);
    },
  });
}
