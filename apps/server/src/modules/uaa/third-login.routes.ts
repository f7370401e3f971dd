import {
  thirdLoginProviderSchema,
  thirdLoginQuerySchema,
  type ThirdLoginProvider,
} from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database } from '../../db/database';
import { envelopeOf, ok } from '../../http/envelope';

/**
 * The identity provider a third-party sign-in (spec §2 /thirdLogin) goes to: an app client with
 * the authorization_code grant and a redirect URI, named by its client id, or the only such client
 * when none is named. The address answered is always the one the platform configured for that
 * client, never one taken from the request, so the page cannot be made an open redirect. The
 * console's own first-party client never qualifies.
 */
export async function readThirdLoginProvider(
  db: Database,
  clientId: string | undefined,
): Promise<ThirdLoginProvider> {
  const { rows } = await db.system((sql) =>
    sql.query<{ client_id: string; web_server_redirect_uri: string }>(
      `SELECT client_id, web_server_redirect_uri FROM oauth_client
        WHERE NOT first_party AND 'authorization_code' = ANY(authorized_grant_types)
          AND coalesce(web_server_redirect_uri, '') <> '' AND ($1::text IS NULL OR client_id = $1)
        ORDER BY client_id LIMIT 2`,
      [clientId ?? null],
    ),
  );
  // Unnamed and several configured: which one the visitor meant is unknown, so none is chosen.
  const row = rows.length === 1 ? rows[0]! : undefined;
  return row ? { clientId: row.client_id, url: row.web_server_redirect_uri } : null;
}

export async function thirdLoginRoutes(fastify: FastifyInstance, deps: { db: Database }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/api/uaa/thirdLogin/provider', {
    config: { permission: 'public' },
    schema: {
      tags: ['uaa'],
      summary:
        'Where a third-party sign-in starts: the configured redirect URI of an app client with the authorization_code grant (null when none is configured)',
      querystring: thirdLoginQuerySchema,
      response: { 200: envelopeOf(thirdLoginProviderSchema) },
    },
    handler: async (request) => ok(await readThirdLoginProvider(deps.db, request.query.clientId)),
  });
}
