import {
  authorityQuerySchema,
  authoritySchema,
  captchaSentSchema,
  compareCaptchaQuerySchema,
  emailCaptchaQuerySchema,
  resetLinkAccountSchema,
  resetLinkTokenSchema,
  resetPasswordByLinkSchema,
  retrievePasswordParamsShape,
  signInCaptchaQuerySchema,
  smsCaptchaQuerySchema,
  type Lang,
} from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/database';
import { AppError, forbidden } from '../../http/app-error';
import { envelopeOf, ok } from '../../http/envelope';
import { authOf } from '../../http/request-context';
import type { Notifier } from '../notify/notifier';
import { identityRepo } from '../uaa/identity.repo';
import { hashPassword } from '../uaa/password-hasher';
import { checkNewPassword } from './password-policy';
import type { RateLimitService } from '../uaa/rate-limit.service';
import { findSignInAccount, signInCodeDelivery, signInCodeRecipient } from '../uaa/sign-in-account';
import type { TokenService } from '../uaa/token.service';
import { readAuthority } from './authority.repo';
import { callParams, paramSchemas } from './call-params';
import type { CaptchaService } from './captcha.service';
import { PasswordResetLinks } from './reset-link.service';

export interface AccountDeps {
  db: Database;
  captchas: CaptchaService;
  tokenService: TokenService;
  rateLimits: RateLimitService;
  notifier: Notifier;
  /** The console's address as its users reach it: the origin of reset links (PUBLIC_URL). */
  publicUrl: string;
}

const wrongCode = (field: string) =>
  new AppError(400, 'auth.captchaInvalid', { fields: [{ field, key: 'auth.captchaInvalid' }] });

/**
 * Password-reset codes are bound to tenant and address, so one code cannot reset another
 * tenant's user; a code asked for without a tenant ("*", never a tenant code) is for the address
 * in every tenant, and only ever sends reset links.
 */
const resetRecipient = (tenantCode: string | undefined, email: string) =>
  `${tenantCode ?? '*'}:${email.toLowerCase()}`;

const retrievePasswordParams = z.object(retrievePasswordParamsShape);

/** Captchas, password retrieval and the caller's authority (spec §7 "Session and login"). */
export async function accountRoutes(fastify: FastifyInstance, deps: AccountDeps) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const links = new PasswordResetLinks(deps);

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
    config: { permission: 'public', reads: true },
    schema: {
      tags: ['account'],
      summary:
        'Checks an SMS code without using it up (params mobile, smsCaptcha: query or form, see http/form-params.ts)',
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
      summary:
        'Sends a password-reset code to the e-mail of an account of the tenant (without tenantCode: of any tenant, for a reset link)',
      querystring: emailCaptchaQuerySchema,
      response: { 200: envelopeOf(captchaSentSchema) },
    },
    handler: async (request) => {
      const { tenantCode, email } = request.query;
      // Deliver to the address as the account stores it, not as typed.
      const storedEmail = (await links.accountsOf(email, tenantCode))[0]?.email;
      const sent = await deps.captchas.send({
        channel: 'email',
        recipient: resetRecipient(tenantCode, email),
        deliverTo: storedEmail,
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
        'Password retrieval with the e-mailed code (charCaptcha). Spec §7 (email, charCaptcha): e-mails a one-time reset link per account of the address (30 minutes, single use). With tenantCode and newPassword: sets the password at once. Either ends every session of the account.',
      description:
        'Params in the query, a form or a JSON body. The answer is the same whether or not the address has an account.',
      ...paramSchemas(retrievePasswordParamsShape),
      response: { 200: envelopeOf(z.null()) },
    },
    handler: async (request) => {
      const { tenantCode, email, charCaptcha, newPassword } = callParams(
        retrievePasswordParams,
        request,
      );
      if (newPassword === undefined) {
        await sendResetLink(email, charCaptcha, tenantCode, request);
        return ok(null);
      }
      if (!tenantCode)
        throw new AppError(400, 'validation.required', {
          fields: [{ field: 'tenantCode', key: 'validation.required' }],
        });
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
      await links.setPassword(user, await hashPassword(newPassword));
      return ok(null);
    },
  });

  /**
   * The link form of retrievePassword: the code may be one asked for with a tenant (a link for
   * that tenant's account) or without (a link for every account of the address). Only the
   * mailbox's owner has the code, so nothing here tells a stranger whether an account exists.
   */
  async function sendResetLink(
    email: string,
    code: string,
    tenantCode: string | undefined,
    request: { ip: string; lang: Lang },
  ) {
    const tenantsOf = new Map<string, string | undefined>();
    if (tenantCode) tenantsOf.set(resetRecipient(tenantCode, email), tenantCode);
    else {
      for (const account of await links.accountsOf(email))
        tenantsOf.set(resetRecipient(account.tenantCode, email), account.tenantCode);
      tenantsOf.set(resetRecipient(undefined, email), undefined);
    }
    const recipient = await deps.captchas.verifyAny('email', [...tenantsOf.keys()], code, true);
    if (recipient === undefined) throw wrongCode('charCaptcha');
    await links.countSend(email, request.ip);
    await links.send(
      await links.accountsOf(email, tenantsOf.get(recipient)),
      request.lang,
      request.ip,
    );
  }

  app.post('/api/account/sysuserdetail/checkResetLink', {
    config: { permission: 'public', reads: true },
    schema: {
      tags: ['account'],
      summary:
        'The account a password-reset link is for, while the link works (400 naming token once it is used or expired)',
      body: resetLinkTokenSchema,
      response: { 200: envelopeOf(resetLinkAccountSchema) },
    },
    handler: async (request) => ok(await links.inspect(request.body.token, request.lang)),
  });

  app.post('/api/account/sysuserdetail/resetPasswordByLink', {
    config: { permission: 'public' },
    schema: {
      tags: ['account'],
      summary:
        'Sets a new password through a reset link and uses the link up; ends every session of the account and forgets its sign-in failures',
      body: resetPasswordByLinkSchema,
      response: { 200: envelopeOf(z.null()) },
    },
    handler: async (request) => {
      await links.redeem(request.body.token, request.body.newPassword, request.lang);
      return ok(null);
    },
  });

  app.post('/api/account/sysuserdetail/queryCurrentAuthority', {
    config: { permission: 'authenticated', reads: true },
    schema: {
      tags: ['account'],
      summary:
        "The menus and menu buttons of the caller's active role (params: username, the caller's own; query or form)",
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
