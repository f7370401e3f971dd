import { REFRESH_COOKIE, sysUserSchema, tokenResponseSchema } from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { AuditService } from '../audit/audit.service';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/database';
import { AppError } from '../../http/app-error';
import { envelopeOf, ok } from '../../http/envelope';
import { authOf } from '../../http/request-context';
import { readSysUser } from './profile.repo';
import { clearRefreshCookie, REFRESH_COOKIE_PATH } from './refresh-cookie';
import { thirdLoginRoutes } from './third-login.routes';
import type { TokenService } from './token.service';

export interface UaaDeps {
  db: Database;
  tokenService: TokenService;
  secureCookies: boolean;
  audit: AuditService;
}

/**
 * Session and login (spec §7): the token endpoint, logout, the signed-in user and where a
 * third-party sign-in starts.
 */
export async function uaaRoutes(fastify: FastifyInstance, deps: UaaDeps) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  await thirdLoginRoutes(fastify, { db: deps.db });

  app.post('/api/uaa/oauth/token', {
    config: { permission: 'public', oauth: true },
    schema: {
      tags: ['uaa'],
      summary: 'OAuth 2.0 token endpoint: password (type=account), mobile and refresh_token grants',
      description:
        'Parameters go in the query string and/or an application/x-www-form-urlencoded body; the client authenticates with HTTP Basic.',
      response: { 200: tokenResponseSchema },
    },
    handler: async (request, reply) => {
      const body =
        request.body && typeof request.body === 'object'
          ? (request.body as Record<string, unknown>)
          : {};
      const params = { ...(request.query as Record<string, unknown>), ...body };
      const attempt = {
        tenantCode: params.tenantCode,
        username: params.username ?? params.mobile,
        grantType: params.grant_type,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      };
      let token;
      try {
        token = await deps.tokenService.grant({
          params,
          authorization: request.headers.authorization,
          refreshCookie: request.cookies[REFRESH_COOKIE],
          ip: request.ip,
          userAgent: request.headers['user-agent'],
        });
      } catch (error) {
        await deps.audit.recordLogin(request, { ...attempt, error });
        throw error;
      }
      await deps.audit.recordLogin(request, attempt);
      // The browser keeps its refresh token where page scripts cannot read it.
      reply.setCookie(REFRESH_COOKIE, token.refresh_token, {
        httpOnly: true,
        sameSite: 'strict',
        secure: deps.secureCookies || request.protocol === 'https',
        path: REFRESH_COOKIE_PATH,
        maxAge: token.refresh_expires_in,
      });
      reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      return token;
    },
  });

  app.post('/api/uaa/oauth/logout', {
    config: { permission: 'authenticated' },
    schema: {
      tags: ['uaa'],
      summary: 'Ends the current session at once',
      response: { 200: envelopeOf(z.null()) },
    },
    handler: async (request, reply) => {
      await deps.tokenService.revokeSession(authOf(request).sessionId, 'logout');
      clearRefreshCookie(reply);
      return ok(null);
    },
  });

  app.get('/api/uaa/users/getSysUser', {
    config: { permission: 'authenticated' },
    schema: {
      tags: ['uaa'],
      summary: 'The signed-in user with roles and tenant',
      response: { 200: envelopeOf(sysUserSchema) },
    },
    handler: async (request) => {
      const auth = authOf(request);
      const user = await deps.db.tenant(auth, (sql) =>
        readSysUser(sql, auth.userId, auth.activeRole, request.lang),
      );
      if (!user) throw new AppError(401, 'auth.sessionRevoked', { code: 50008 });
      return ok(user);
    },
  });
}
