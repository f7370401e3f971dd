import {
  onlineSessionSchema,
  roleGrantSchemas,
  sysUserEntity,
  rowSchemaOf,
  type OnlineSession,
} from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/database';
import { isUniqueViolation } from '../../db/pg-errors';
import { AppError, forbidden } from '../../http/app-error';
import { envelopeOf, ok, page, pageOf } from '../../http/envelope';
import { authOf } from '../../http/request-context';
import { entityRepo } from '../../entity/entity-repo';
import { shapeRow } from '../../entity/entity-rows';
import type { PlatformTenants } from '../../entity/platform-tenants';
import { hashNewPassword } from '../account/password-policy';
import { mfaRepo } from '../uaa/mfa.repo';
import { sessionRepo } from '../uaa/session.repo';
import type { TokenService } from '../uaa/token.service';

import { checkManageable } from './scope-confinement';

const granted = { permission: 'granted' as const };
const tags = ['SysUser'];

/** The user calls of spec §7 beyond the generic ones: checks, details, passwords, sessions. */
export async function userAdminRoutes(
  fastify: FastifyInstance,
  deps: { db: Database; tokenService: TokenService; platform: PlatformTenants },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/api/admin/sysuser/queryUsername', {
    config: granted,
    schema: {
      tags,
      summary: 'Whether a username is taken in the tenant (any letter case)',
      querystring: z.object({ username: z.string().trim().min(1).max(64) }),
      response: { 200: envelopeOf(z.object({ exists: z.boolean() })) },
    },
    handler: async (request) => {
      const auth = authOf(request);
      const { rows } = await deps.db.tenant(auth, (sql) =>
        sql.query('SELECT 1 FROM sys_user WHERE lower(username) = lower($1)', [
          request.query.username,
        ]),
      );
      return ok({ exists: rows.length > 0 });
    },
  });

  app.get('/api/admin/sysuser/queryUserInfoDetail', {
    config: granted,
    schema: {
      tags,
      summary: 'One user with roles, organisation, zones and posts',
      querystring: z.object({
        id: z.string().regex(/^\d{1,18}$/, { error: 'validation.invalid' }),
      }),
      response: {
        200: envelopeOf(
          rowSchemaOf(sysUserEntity).extend({
            postIds: z.array(z.string()),
            postNames: z.array(z.string()),
          }),
        ),
      },
    },
    handler: async (request) => {
      const auth = authOf(request);
      return ok(
        await deps.db.tenant(auth, async (sql) => {
          const [user] = await entityRepo.byKeys(sql, sysUserEntity, [request.query.id]);
          if (!user) throw new AppError(404, 'error.recordNotFound');
          const posts = await sql.query<{ id: string; post_name: string }>(
            'SELECT p.id::text AS id, p.post_name FROM sys_user_post up JOIN sys_post p ON p.id = up.post_id WHERE up.user_id = $1 ORDER BY p.post_sequence',
            [request.query.id],
          );
          return {
            ...shapeRow(user, undefined),
            postIds: posts.rows.map((row) => row.id),
            postNames: posts.rows.map((row) => row.post_name),
          };
        }),
      );
    },
  });

  app.post('/api/admin/sysuser/resetSysUserPassword', {
    config: granted,
    schema: {
      tags,
      summary: "Sets a user's password and signs them out everywhere",
      body: roleGrantSchemas.resetPassword,
      response: { 200: envelopeOf(z.null()) },
    },
    handler: async (request) => {
      const auth = authOf(request);
      const { rows } = await deps.db.tenant(auth, async (sql) => {
        await checkManageable(sql, auth, [request.body.id]);
        return sql.query<{ username: string }>('SELECT username FROM sys_user WHERE id = $1', [
          request.body.id,
        ]);
      });
      if (rows.length === 0) throw new AppError(404, 'error.recordNotFound');
      await deps.tokenService.setPassword(
        request.body.id,
        await hashNewPassword(request.body.password, {
          field: 'password',
          username: rows[0]!.username,
          tenantCode: auth.tenantCode,
        }),
        'password_reset',
      );
      return ok(null);
    },
  });

  app.post('/api/admin/sysuser/resetSysUserSecondFactor', {
    config: granted,
    schema: {
      tags,
      summary:
        "Turns a user's two-step verification off (a lost authenticator) and signs them out everywhere; where it is required they set it up again at their next sign-in",
      body: roleGrantSchemas.resetSecondFactor,
      response: { 200: envelopeOf(z.object({ wasOn: z.boolean(), revoked: z.number() })) },
    },
    handler: async (request) => {
      const auth = authOf(request);
      // The tenant's context: row-level security keeps another tenant's users out of reach.
      const result = await deps.db.tenant(auth, async (sql) => {
        const user = await sql.query('SELECT 1 FROM sys_user WHERE id = $1', [request.body.id]);
        if (user.rows.length === 0) throw new AppError(404, 'error.recordNotFound');
        await checkManageable(sql, auth, [request.body.id]);
        return {
          wasOn: await mfaRepo.remove(sql, request.body.id),
          revoked: await sessionRepo.revokeAllOfUser(sql, request.body.id, 'second_factor_reset'),
        };
      });
      return ok(result);
    },
  });

  app.get('/api/admin/sysuser/queryOnlineSysUser', {
    config: granted,
    schema: {
      tags,
      summary: 'Signed-in sessions of the tenant: who, from where, since when',
      querystring: z.object({
        currentPage: z.coerce.number().int().min(1).max(100_000).default(1),
        pageSize: z.coerce.number().int().min(1).max(500).default(10),
        username: z.string().trim().max(64).optional(),
      }),
      response: { 200: pageOf(onlineSessionSchema) },
    },
    handler: async (request) => {
      const auth = authOf(request);
      const { currentPage, pageSize, username } = request.query;
      const filter = username ? `%${username.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
      const { list, total } = await deps.db.tenant(auth, async (sql) => {
        const where = `WHERE s.revoked_at IS NULL AND s.expires_at > now() AND ($1::text IS NULL OR u.username ILIKE $1)`;
        const count = await sql.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM user_session s JOIN sys_user u ON u.id = s.user_id ${where}`,
          [filter],
        );
        const rows = await sql.query<OnlineSession>(
          `SELECT s.id::text AS "sessionId", u.id::text AS "userId", u.username, u.nickname, s.grant_type AS "grantType", s.ip, s.user_agent AS "userAgent",
                  to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "createdAt",
                  to_char(s.last_seen_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "lastSeenAt",
                  to_char(s.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "expiresAt",
                  s.id::text = $4 AS current
             FROM user_session s JOIN sys_user u ON u.id = s.user_id ${where}
            ORDER BY s.last_seen_at DESC LIMIT $2 OFFSET $3`,
          [filter, pageSize, (currentPage - 1) * pageSize, auth.sessionId],
        );
        return { list: rows.rows, total: count.rows[0]!.n };
      });
      return page(list, total, currentPage, pageSize);
    },
  });

  const removeSchema = z.object({ username: z.string().trim().min(1).max(64) });
  app.post('/api/admin/sysuser/removePrincipal', {
    config: granted,
    schema: {
      tags,
      summary: 'Ends every session of a user at once',
      querystring: removeSchema.partial(),
      body: removeSchema.partial().nullish(),
      response: { 200: envelopeOf(z.object({ revoked: z.number() })) },
    },
    handler: async (request) => {
      const auth = authOf(request);
      const username = request.query.username ?? request.body?.username;
      if (!username)
        throw new AppError(400, 'validation.required', {
          fields: [{ field: 'username', key: 'validation.required' }],
        });
      const revoked = await deps.db.tenant(auth, async (sql) => {
        const { rows } = await sql.query(
          `UPDATE user_session s SET revoked_at = now(), revoke_reason = 'removed_by_admin'
             FROM sys_user u WHERE u.id = s.user_id AND lower(u.username) = lower($1) AND s.revoked_at IS NULL RETURNING s.id`,
          [username],
        );
        return rows.length;
      });
      return ok({ revoked });
    },
  });

  const tenantUser = z.object({
    tenantCode: z.string().trim().min(1).max(64),
    userId: z.string().regex(/^\d{1,18}$/, { error: 'validation.invalid' }),
  });
  app.post('/api/admin/sysuser/addSysTenantUser', {
    config: granted,
    schema: {
      tags,
      summary:
        'Puts an existing user (same credentials) into another tenant: as its administrator when the tenant has none yet (one added without an administrator), else as an operator; platform tenant only',
      querystring: tenantUser.partial(),
      body: tenantUser.partial().nullish(),
      response: { 200: envelopeOf(z.object({ tenantCode: z.string(), userId: z.string() })) },
    },
    handler: async (request) => {
      const auth = authOf(request);
      if (!(await deps.platform.isPlatform(auth.tenantId))) throw forbidden('auth.platformOnly');
      const input = tenantUser.safeParse({ ...(request.body ?? {}), ...request.query });
      if (!input.success)
        throw new AppError(400, 'validation.required', {
          fields: [
            {
              field: input.error.issues[0]?.path.join('.') ?? 'tenantCode',
              key: 'validation.required',
            },
          ],
        });
      const { tenantCode, userId } = input.data;
      const created = await deps.db.system(async (sql) => {
        const source = await sql.query<{
          username: string;
          nickname: string;
          password_hash: string;
          email: string | null;
          mobile: string | null;
        }>('SELECT username, nickname, password_hash, email, mobile FROM sys_user WHERE id = $1', [
          userId,
        ]);
        // Locked: two copies at once must not both find the tenant without an administrator.
        const target = await sql.query<{ id: string }>(
          'SELECT id::text AS id FROM tenant WHERE tenant_code = $1 FOR UPDATE',
          [tenantCode],
        );
        if (!source.rows[0])
          throw new AppError(404, 'error.recordNotFound', {
            fields: [{ field: 'userId', key: 'error.recordNotFound' }],
          });
        if (!target.rows[0])
          throw new AppError(404, 'auth.unknownTenant', {
            fields: [{ field: 'tenantCode', key: 'auth.unknownTenant' }],
          });
        const user = source.rows[0];
        const tenantId = target.rows[0].id;
        try {
          const inserted = await sql.query<{ id: string }>(
            `INSERT INTO sys_user (tenant_id, username, nickname, password_hash, email, mobile, org_id)
             VALUES ($1, $2, $3, $4, $5, $6, (SELECT id FROM sys_org WHERE tenant_id = $1 AND org_parent IS NULL ORDER BY id LIMIT 1))
             RETURNING id::text AS id`,
            [tenantId, user.username, user.nickname, user.password_hash, user.email, user.mobile],
          );
          // A tenant added without an administrator gets its first one this way.
          await sql.query(
            `INSERT INTO sys_user_role (tenant_id, user_id, role_id)
             SELECT $1, $2, id FROM sys_role
              WHERE tenant_id = $1
                AND role_code = CASE WHEN EXISTS (
                      SELECT 1 FROM sys_user_role ur JOIN sys_role r ON r.id = ur.role_id
                       WHERE r.tenant_id = $1 AND r.role_code = 'ROLE_ADMIN' AND ur.user_id <> $2)
                    THEN 'ROLE_OPERATOR' ELSE 'ROLE_ADMIN' END`,
            [tenantId, inserted.rows[0]!.id],
          );
          return inserted.rows[0]!.id;
        } catch (error) {
          if (isUniqueViolation(error))
            throw new AppError(409, 'conflict.taken', {
              fields: [{ field: 'userId', key: 'conflict.taken' }],
            });
          throw error;
        }
      });
      return ok({ tenantCode, userId: created });
    },
  });
}
