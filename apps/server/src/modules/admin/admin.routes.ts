import crypto from 'node:crypto';
import {
  normalizeMobile,
  registerAccountSchema,
  registeredSchema,
  sessionInfoSchema,
  tenantOptionSchema,
  tenantUserQuerySchema,
  translate,
} from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/database';
import { AppError, tooManyRequests } from '../../http/app-error';
import { envelopeOf, ok } from '../../http/envelope';
import { authOf } from '../../http/request-context';
import type { CaptchaService } from '../account/captcha.service';
import type { Notifier } from '../notify/notifier';
import { identityRepo, tenantNameIn } from '../uaa/identity.repo';
import { hashNewPassword } from '../account/password-policy';
import { clientKey, RATE_RULES, type RateLimitService } from '../uaa/rate-limit.service';
import type { UrlGrantService } from '../authority/url-grant.service';
import { provisionTenant } from './tenant-provisioning.service';

export interface AdminDeps {
  db: Database;
  captchas: CaptchaService;
  rateLimits: RateLimitService;
  notifier: Notifier;
  /** A new tenant gets its URL list (and its roles' default grants) in the same transaction. */
  grants: UrlGrantService;
}

/** A short random tenant code for self-registered tenants (names may be any script). */
function newTenantCode(): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyz23456789';
  const bytes = crypto.randomBytes(7);
  return `t${Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join('')}`;
}

/** Users' tenant look-up, self-registration and session registration. */
export async function adminRoutes(fastify: FastifyInstance, deps: AdminDeps) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/api/admin/sysuser/queryTenantUser', {
    config: { permission: 'public' },
    schema: {
      tags: ['admin'],
      summary: 'The tenants a username, e-mail or mobile belongs to (for the sign-in form)',
      querystring: tenantUserQuerySchema,
      response: { 200: envelopeOf(z.array(tenantOptionSchema)) },
    },
    handler: async (request) => {
      const locked = await deps.rateLimits.attempt(
        `tenant-lookup:${clientKey(request.ip)}`,
        RATE_RULES.tenantLookupsPerIp,
      );
      if (locked > 0) throw tooManyRequests(locked);
      const { userInfo } = request.query;
      const tenants = await deps.db.system((sql) =>
        identityRepo.tenantsOf(sql, userInfo, normalizeMobile(userInfo)),
      );
      return ok(
        tenants.map((tenant) => ({
          tenantCode: tenant.tenant_code,
          tenantName: tenantNameIn(tenant, request.lang),
        })),
      );
    },
  });

  app.post('/api/admin/sysuser/registerNewSession', {
    config: { permission: 'authenticated' },
    schema: {
      tags: ['admin'],
      summary: 'Records where the new session signed in from (the call after sign-in)',
      response: { 200: envelopeOf(sessionInfoSchema) },
    },
    handler: async (request) => {
      const auth = authOf(request);
      const session = await deps.db.tenant(auth, async (sql) => {
        const { rows } = await sql.query<{
          id: string;
          created_at: Date;
          last_seen_at: Date;
          ip: string | null;
          user_agent: string | null;
        }>(
          `UPDATE user_session SET ip = $2, user_agent = $3, last_seen_at = now() WHERE id = $1
           RETURNING id, created_at, last_seen_at, ip, user_agent`,
          [auth.sessionId, request.ip, request.headers['user-agent']?.slice(0, 512) ?? null],
        );
        return rows[0]!;
      });
      return ok({
        id: session.id,
        createdAt: session.created_at.toISOString(),
        lastSeenAt: session.last_seen_at.toISOString(),
        ip: session.ip,
        userAgent: session.user_agent,
      });
    },
  });

  app.post('/api/admin/sysuser/registerAccountInitial', {
    config: { permission: 'public' },
    schema: {
      tags: ['admin'],
      summary: 'Self-registration: creates a new tenant whose administrator is the registrant',
      body: registerAccountSchema,
      response: { 200: envelopeOf(registeredSchema) },
    },
    handler: async (request) => {
      const input = request.body;
      if (!(await deps.captchas.verify('sms', input.mobile, input.smsCaptcha, true))) {
        throw new AppError(400, 'auth.captchaInvalid', {
          fields: [{ field: 'smsCaptcha', key: 'auth.captchaInvalid' }],
        });
      }
      const passwordHash = await hashNewPassword(input.password, {
        field: 'password',
        username: input.username,
      });
      const tenantCode = await deps.db.system(async (sql) => {
        let code = newTenantCode();
        while ((await identityRepo.tenantByCode(sql, code)) !== undefined) code = newTenantCode();
        const { tenantId } = await provisionTenant(sql, {
          tenantCode: code,
          tenantName: input.tenantName,
          email: input.email,
          tel: input.mobile,
          contact: input.nickname || input.username,
          users: [
            {
              username: input.username,
              nickname: input.nickname || input.username,
              passwordHash,
              email: input.email,
              mobile: input.mobile,
              roleCodes: ['ROLE_ADMIN'],
            },
          ],
        });
        await deps.grants.syncCatalogue(sql, [tenantId]);
        return code;
      });
      await deps.notifier.send({
        channel: 'email',
        recipient: input.email,
        subject: translate(request.lang, 'register.welcomeSubject'),
        body: translate(request.lang, 'register.welcomeBody', {
          tenantName: input.tenantName,
          tenantCode,
          username: input.username,
        }),
      });
      return ok({ tenantCode, username: input.username });
    },
  });
}
