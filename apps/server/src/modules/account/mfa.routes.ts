import {
  mfaConfirmSchema,
  mfaDisableSchema,
  mfaEnrolmentSchema,
  mfaStartSchema,
  mfaStatusSchema,
  mfaTicketSchema,
  recoveryCodesSchema,
} from '@shuili/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database, Sql } from '../../db/database';
import { AppError } from '../../http/app-error';
import { envelopeOf, ok } from '../../http/envelope';
import { authOf } from '../../http/request-context';
import type { Notifier } from '../notify/notifier';
import type { MfaService } from '../uaa/mfa.service';
import type { RateLimitService } from '../uaa/rate-limit.service';
import { checkOwnPassword, checkOwnProof } from './own-password';
import {
  endOtherSessions,
  noticeRecoveryChange,
  readAddresses,
  type RecoveryAddresses,
  type RecoveryChange,
} from './recovery-change';

export interface MfaRoutesDeps {
  db: Database;
  mfa: MfaService;
  rateLimits: RateLimitService;
  notifier: Notifier;
}

/** Who a ticket's user is, for the authenticator's label. */
async function accountOf(db: Database, userId: string) {
  const { rows } = await db.system((sql) =>
    sql.query<{ username: string; tenant_code: string; tenant_id: string }>(
      `SELECT u.username, t.tenant_code, t.id::text AS tenant_id
         FROM sys_user u JOIN tenant t ON t.id = u.tenant_id WHERE u.id = $1 AND u.status = 1`,
      [userId],
    ),
  );
  return rows[0];
}

/**
 * Turning the second factor on or off from the profile: `change` runs the service call, handing
 * it the work to do inside its transaction (other sessions end); the old addresses are told after.
 */
async function changeSecondFactor<T>(
  deps: MfaRoutesDeps,
  request: FastifyRequest,
  what: RecoveryChange,
  change: (within: (sql: Sql) => Promise<void>) => Promise<T>,
): Promise<T> {
  const auth = authOf(request);
  let before: RecoveryAddresses = { email: null, mobile: null };
  const answer = await change(async (sql) => {
    before = await readAddresses(sql, auth.userId);
    await endOtherSessions(sql, auth);
  });
  await noticeRecoveryChange(
    { notifier: deps.notifier, log: request.log },
    request.lang,
    auth,
    before,
    [what],
  );
  return answer;
}

/**
 * The TOTP second factor of the signed-in user (profile), and the enrolment a user who must
 * have one starts at sign-in with the ticket the token endpoint gave instead of a session.
 */
export async function mfaRoutes(fastify: FastifyInstance, deps: MfaRoutesDeps) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['account'];

  app.post('/api/uaa/mfa/startEnrolment', {
    config: { permission: 'public' },
    schema: {
      tags: ['uaa'],
      summary:
        'Sign-in enrolment: the new TOTP secret of the user a mfa_enrollment_required ticket names; confirm by signing in again with totpCode',
      body: mfaTicketSchema,
      response: { 200: envelopeOf(mfaEnrolmentSchema) },
    },
    handler: async (request) => {
      const { userId } = deps.mfa.readTicket(request.body.ticket);
      const account = await accountOf(deps.db, userId);
      if (!account)
        throw new AppError(400, 'auth.mfaTicketInvalid', {
          fields: [{ field: 'ticket', key: 'auth.mfaTicketInvalid' }],
        });
      const enrolment = await deps.mfa.startEnrolment({
        id: userId,
        tenantId: account.tenant_id,
        tenantCode: account.tenant_code,
        username: account.username,
      });
      return ok(enrolment);
    },
  });

  app.get('/api/account/mfa/queryMfaStatus', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary: "The caller's two-step verification: on or off, required or not",
      response: { 200: envelopeOf(mfaStatusSchema) },
    },
    handler: async (request) => ok(await deps.mfa.status(authOf(request).userId)),
  });

  app.post('/api/account/mfa/startEnrolment', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary:
        'Starts turning two-step verification on, with currentPassword: a new TOTP secret and its otpauth URL',
      // No body at all is a missing password too (answered as such, not as a malformed call).
      body: mfaStartSchema.nullish(),
      response: { 200: envelopeOf(mfaEnrolmentSchema) },
    },
    handler: async (request) => {
      const auth = authOf(request);
      await checkOwnProof(deps, auth, request.body ?? {});
      return ok(
        await deps.mfa.startEnrolment({
          id: auth.userId,
          tenantId: auth.tenantId,
          tenantCode: auth.tenantCode,
          username: auth.username,
        }),
      );
    },
  });

  app.post('/api/account/mfa/confirmEnrolment', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary:
        'Turns two-step verification on with a first code; answers one-time recovery codes. Other sessions end; the email address is told',
      body: mfaConfirmSchema,
      response: { 200: envelopeOf(recoveryCodesSchema) },
    },
    handler: async (request) => {
      const recoveryCodes = await changeSecondFactor(deps, request, 'mfaOn', (within) =>
        deps.mfa.confirm(authOf(request).userId, request.body.code, 'code', within),
      );
      return ok({ recoveryCodes });
    },
  });

  app.post('/api/account/mfa/renewRecoveryCodes', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary:
        'New one-time recovery codes against a code of the authenticator; the earlier ones stop working',
      body: mfaConfirmSchema,
      response: { 200: envelopeOf(recoveryCodesSchema) },
    },
    handler: async (request) => {
      const recoveryCodes = await deps.mfa.renewRecoveryCodes(
        authOf(request).userId,
        request.body.code,
      );
      return ok({ recoveryCodes });
    },
  });

  app.post('/api/account/mfa/disableMfa', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary:
        'Turns two-step verification off with currentPassword and a code (not when required). Other sessions end; the email address is told',
      body: mfaDisableSchema,
      response: { 200: envelopeOf(z.null()) },
    },
    handler: async (request) => {
      const auth = authOf(request);
      if ((await deps.mfa.status(auth.userId)).required)
        throw new AppError(409, 'account.mfaRequiredByPolicy');
      await checkOwnPassword(deps, auth, request.body.currentPassword, {
        field: 'currentPassword',
        key: 'account.oldPasswordWrong',
      });
      await deps.mfa.verify(auth.userId, request.body.code, 'code');
      await changeSecondFactor(deps, request, 'mfaOff', (within) =>
        deps.mfa.disable(auth.userId, within),
      );
      return ok(null);
    },
  });
}
