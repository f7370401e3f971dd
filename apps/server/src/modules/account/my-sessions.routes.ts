import { mySessionSchema, sessionIdSchema, signedOutSchema } from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/database';
import { AppError } from '../../http/app-error';
import { envelopeOf, ok } from '../../http/envelope';
import { authOf } from '../../http/request-context';
import { clearRefreshCookie } from '../uaa/refresh-cookie';
import { sessionRepo, type SessionLimits } from '../uaa/session.repo';

export interface MySessionsDeps {
  db: Database;
  limits: SessionLimits;
}

/**
 * The signed-in user's own sessions: list them, end one, end all others, end all. Revocation
 * is an UPDATE of user_session, which the database announces (migration 007), so every node
 * refuses the ended sessions at their next request.
 */
export async function mySessionsRoutes(fastify: FastifyInstance, deps: MySessionsDeps) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['account'];

  app.get('/api/account/session/queryMySessions', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary: "The caller's live sessions: when, from where, with what; the current one marked",
      response: { 200: envelopeOf(z.array(mySessionSchema)) },
    },
    handler: async (request) => {
      const auth = authOf(request);
      const rows = await deps.db.system((sql) =>
        sessionRepo.listLive(sql, auth.userId, deps.limits),
      );
      return ok(
        rows.map((row) => ({
          id: row.id,
          createdAt: row.created_at.toISOString(),
          lastSeenAt: row.last_seen_at.toISOString(),
          ip: row.ip,
          userAgent: row.user_agent,
          grantType: row.grant_type,
          current: row.id === auth.sessionId,
        })),
      );
    },
  });

  app.post('/api/account/session/signOutSession', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary: 'Ends one of the caller’s own sessions at once',
      body: sessionIdSchema,
      response: { 200: envelopeOf(signedOutSchema) },
    },
    handler: async (request, reply) => {
      const auth = authOf(request);
      const ended = await deps.db.system((sql) =>
        sessionRepo.revokeOfUser(sql, auth.userId, request.body.id, 'signed_out_by_user'),
      );
      if (!ended)
        throw new AppError(404, 'account.sessionNotFound', {
          fields: [{ field: 'id', key: 'account.sessionNotFound' }],
        });
      if (request.body.id === auth.sessionId) clearRefreshCookie(reply);
      return ok({ count: 1 });
    },
  });

  app.post('/api/account/session/signOutOtherSessions', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary: 'Ends every session of the caller but this one',
      response: { 200: envelopeOf(signedOutSchema) },
    },
    handler: async (request) => {
      const auth = authOf(request);
      const count = await deps.db.system((sql) =>
        sessionRepo.revokeOthersOfUser(sql, auth.userId, auth.sessionId, 'signed_out_everywhere'),
      );
      return ok({ count });
    },
  });

  app.post('/api/account/session/signOutEverywhere', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary: 'Ends every session of the caller, this one included',
      response: { 200: envelopeOf(signedOutSchema) },
    },
    handler: async (request, reply) => {
      const auth = authOf(request);
      const count = await deps.db.system((sql) =>
        sessionRepo.revokeAllOfUser(sql, auth.userId, 'signed_out_everywhere'),
      );
      clearRefreshCookie(reply);
      return ok({ count });
    },
  });
}
