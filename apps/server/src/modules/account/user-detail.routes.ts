import {
  SYS_USER_DETAIL_FIELDS,
  sysUserSchema,
  updatePasswordSchema,
  updateSysUserDetailSchema,
} from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database, Sql } from '../../db/database';
import { isUniqueViolation } from '../../db/pg-errors';
import { AppError, forbidden } from '../../http/app-error';
import { envelopeOf, ok } from '../../http/envelope';
import { authOf } from '../../http/request-context';
import { hashPassword } from '../uaa/password-hasher';
import type { Notifier } from '../notify/notifier';
import type { MfaService } from '../uaa/mfa.service';
import { checkOwnPassword, checkOwnProof, proofRequired } from './own-password';
import { checkNewPassword } from './password-policy';
import { readSysUser } from '../uaa/profile.repo';
import type { RateLimitService } from '../uaa/rate-limit.service';
import type { TokenService } from '../uaa/token.service';
import {
  addressChanges,
  endOtherSessions,
  noticeRecoveryChange,
  readAddresses,
} from './recovery-change';

export interface UserDetailDeps {
  db: Database;
  tokenService: TokenService;
  rateLimits: RateLimitService;
  mfa: MfaService;
  notifier: Notifier;
}

const conflictOn = (field: 'email' | 'mobile') =>
  new AppError(409, `conflict.${field}`, { fields: [{ field, key: `conflict.${field}` }] });

/**
 * Writes the fields the request sent (null clears one), each to its column of the same name; a
 * field not sent keeps its value.
 */
async function updateSentDetails(
  sql: Sql,
  userId: string,
  details: Partial<Record<(typeof SYS_USER_DETAIL_FIELDS)[number], string | null>>,
): Promise<void> {
  const sent = SYS_USER_DETAIL_FIELDS.filter((field) => details[field] !== undefined);
  if (sent.length === 0) return;
  const sets = sent.map((field, at) => `${field} = $${at + 2}`);
  await sql.query(`UPDATE sys_user SET ${sets.join(', ')}, updated_at = now() WHERE id = $1`, [
    userId,
    ...sent.map((field) => details[field]),
  ]);
}

/** The signed-in user's own details and password (spec §7 "User detail"). */
export async function userDetailRoutes(fastify: FastifyInstance, deps: UserDetailDeps) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.put('/api/account/sysuserdetail/updateSysUserDetail', {
    config: { permission: 'authenticated' },
    schema: {
      tags: ['account'],
      summary:
        "Updates the caller's own nickname, contact details and profile (the fields sent); a new email or mobile takes currentPassword (or totpCode), ends the other sessions and is told to the old addresses",
      body: updateSysUserDetailSchema,
      response: { 200: envelopeOf(sysUserSchema) },
    },
    handler: async (request) => {
      const auth = authOf(request);
      const { currentPassword, totpCode, ...details } = request.body;
      // The proof is checked before the write (its checks run and throttle on their own).
      const current = await deps.db.tenant(auth.tenantId, (sql) => readAddresses(sql, auth.userId));
      const proved = addressChanges(current, details).length > 0;
      if (proved) await checkOwnProof(deps, auth, { currentPassword, totpCode });
      try {
        const { user, before, changes } = await deps.db.tenant(auth.tenantId, async (sql) => {
          const before = await readAddresses(sql, auth.userId);
          const changes = addressChanges(before, details);
          // Another request changed the addresses since: this one's change was not proved.
          if (changes.length > 0 && !proved) throw proofRequired();
          await updateSentDetails(sql, auth.userId, details);
          if (changes.length > 0) await endOtherSessions(sql, auth);
          const user = await readSysUser(sql, auth.userId, auth.activeRole, request.lang);
          return { user, before, changes };
        });
        await noticeRecoveryChange(
          { notifier: deps.notifier, log: request.log },
          request.lang,
          auth,
          before,
          changes,
        );
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
