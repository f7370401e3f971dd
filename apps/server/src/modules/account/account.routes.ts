import {
  authorityQuerySchema,
  authoritySchema,
  captchaSentSchema,
  compareCaptchaQuerySchema,
  emailCaptchaQuerySchema,
  retrievePasswordSchema,
  signInCaptchaQuerySchema,
  smsCaptchaQuerySchema,
} from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/database';
import { AppError, forbidden } from '../../http/app-error';
import { envelopeOf, ok } from '../../http/envelope';
import { authOf } from '../../http/request-context';
import { identityRepo } from '../uaa/identity.repo';
import { hashPassword } from '../uaa/password-hasher';
import { checkNewPassword } from './password-policy';
import type { RateLimitService } from '../uaa/rate-limit.service';
import { findSignInAccount, signInCodeDelivery, signInCodeRecipient } from '../uaa/sign-in-account';
import type { TokenService } from '../uaa/token.service';
import { readAuthority } from './authority.repo';
import type { CaptchaService } from './captcha.service';

export interface AccountDeps {
  db: Database;
  captchas: CaptchaService;
  tokenService: TokenService;
  rateLimits: RateLimitService;
}

const wrongCode = (field: string) =>
  new AppError(400, 'auth.captchaInvalid', { fields: [{ field, key: 'auth.captchaInvalid' }] });

/** Password resets are bound to tenant and address, so one code cannot reset another tenant's user. */
const resetRecipient = (tenantCode: string, email: string) =>
  `${tenantCode}:${email.toLowerCase()}`;

/** Captchas, password retrieval and the caller's authority (spec §7 "Session and login"). */
export async function accountRoutes(fastify: FastifyInstance, deps: AccountDeps) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/api/account/captcha/getSmsCaptcha', {
    config: { permission: 'public' },
    schema: {
      tags: ['account'],
      summary: 'Sends a 6-digit code by SMS (sign-in with tenantCode, registration without)',
      querystring: smsCaptchaQuerySchema,
      response: { 200: envelopeOf(captchaSentSchema) },
    },
    handler: async (request) => {
      const { mobile, tenantCode } = request.query;
      // For sign-in, only numbers of that tenant get a text; the answer is the same either way.
      const deliver = tenantCode
        ? await deps.db.system(async (sql) => {
            const tenant = await identityRepo.tenantByCode(sql, tenantCode);
            return tenant
              ? Boolean(await identityRepo.userByMobile(sql, tenant.id, mobile))
              : false;
          })
        : true;
      const sent = await deps.captchas.send({
        channel: 'sms',
        recipient: mobile,
        deliverTo: deliver ? mobile : undefined,
        ip: request.ip,
        lang: request.lang,
      });
      return ok(sent);
    },
  });

  app.get('/api/account/captcha/getSignInCaptcha', {
    config: { permission: 'public' },
    schema: {
      tags: ['account'],
      summary:
        "Sends the code a password sign-in needs after too many failures to the account's mobile, else its e-mail",
      querystring: signInCaptchaQuerySchema,
      response: { 200: envelopeOf(captchaSentSchema) },
    },
    handler: async (request) => {
      const { tenantCode, username } = request.query;
      // Answered the same whether the account exists or not; only a real one gets a message.
      const { recipient, channel, deliverTo } = await deps.db.system(async (sql) => {
        const account = await findSignInAccount(sql, tenantCode, username);
        return {
          recipient: signInCodeRecipient(account),
          ...(await signInCodeDelivery(sql, account)),
        };
      });
      const sent = await deps.captchas.send({
        channel,
        recipient,
        deliverTo,
        ip: request.ip,
        lang: request.lang,
      });
      return ok(sent);
    },
  });

  app.post('/api/account/sysuserdetail/compareCaptcha', {
    config: { permission: 'public' },
    schema: {
      tags: ['account'],
      summary: 'Checks an SMS code without using it up',
      querystring: compareCaptchaQuerySchema,
      response: { 200: envelopeOf(z.boolean()) },
    },
    handler: async (request) => {
      const { mobile, smsCaptcha } = request.query;
      if (!(await deps.captchas.verify('sms', mobile, smsCaptcha, false)))
        throw wrongCode('smsCaptcha');
      return ok(true);
    },
  });

  app.get('/api/account/captcha/getEmailCaptcha', {
    config: { permission: 'public' },
    schema: {
      tags: ['account'],
      summary: 'Sends a password-reset code to the e-mail of an account of the tenant',
      querystring: emailCaptchaQuerySchema,
      response: { 200: envelopeOf(captchaSentSchema) },
    },
    handler: async (request) => {
      const { tenantCode, email } = request.query;
      // Deliver to the address as the account stores it, not as typed.
      const storedEmail = await deps.db.system(async (sql) => {
        const tenant = await identityRepo.tenantByCode(sql, tenantCode);
        return tenant ? (await identityRepo.userByEmail(sql, tenant.id, email))?.email : undefined;
      });
      const sent = await deps.captchas.send({
        channel: 'email',
        recipient: resetRecipient(tenantCode, email),
        deliverTo: storedEmail ?? undefined,
        ip: request.ip,
        lang: request.lang,
      });
      return ok(sent);
    },
  });

  app.post('/api/account/sysuserdetail/retrievePassword', {
    config: { permission: 'public' },
    schema: {
      tags: ['account'],
      summary:
        'Sets a new password with the code sent by e-mail; ends every session of the account',
      body: retrievePasswordSchema,
      response: { 200: envelopeOf(z.null()) },
    },
    handler: async (request) => {
      const { tenantCode, email, charCaptcha, newPassword } = request.body;
      // Checked before the code is used up, so a refused password does not cost the code.
      checkNewPassword(newPassword, { field: 'newPassword', tenantCode });
      if (
        !(await deps.captchas.verify('email', resetRecipient(tenantCode, email), charCaptcha, true))
      ) {
        throw wrongCode('charCaptcha');
      }
      const user = await deps.db.system(async (sql) => {
        const tenant = await identityRepo.tenantByCode(sql, tenantCode);
        return tenant ? identityRepo.userByEmail(sql, tenant.id, email) : undefined;
      });
      if (!user) throw wrongCode('charCaptcha');
      checkNewPassword(newPassword, { field: 'newPassword', username: user.username, tenantCode });
      await deps.tokenService.setPassword(
        user.id,
        await hashPassword(newPassword),
        'password_reset',
      );
      await deps.rateLimits.reset(`login:${user.tenant_id}:${user.id}`);
      return ok(null);
    },
  });

  app.post('/api/account/sysuserdetail/queryCurrentAuthority', {
    config: { permission: 'authenticated' },
    schema: {
      tags: ['account'],
      summary: "The menus and menu buttons of the caller's active role",
      querystring: authorityQuerySchema,
      response: { 200: envelopeOf(authoritySchema) },
    },
    handler: async (request) => {
      const auth = authOf(request);
      const asked = request.query.username;
      if (asked && asked.toLowerCase() !== auth.username.toLowerCase())
        throw forbidden('auth.notYourAccount');
      return ok(await deps.db.tenant(auth, (sql) => readAuthority(sql, auth.activeRole)));
    },
  });
}
