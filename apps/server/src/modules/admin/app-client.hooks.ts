import crypto from 'node:crypto';
import { BROWSER_CLIENT_ID } from '@shuili/contract';
import type { EntityHooks } from '../../entity/entity-hooks';
import type { Row } from '../../entity/entity-repo';
import { AppError } from '../../http/app-error';
import { hashChosenClientSecret, hashClientSecret } from '../uaa/client.service';

/** A secret the call gives (spec §3 clientSecret; blank or absent is none). */
const givenSecret = (values: Row) =>
  typeof values.clientSecret === 'string' ? values.clientSecret : undefined;

/**
 * App clients: the secret is stored only as a hash (argon2id for one the call chooses, which may
 * be guessable; SHA-256 for a generated one). One the call gives is kept as given and
 * never answered (its owner knows it); without one, add generates it and answers it once, and
 * update keeps the old one. The console's own `browser` client cannot be removed or renamed,
 * nor given another secret (the console signs in with it). The password grant is for the
 * first-party client alone (RFC 9700), so other clients may not take it.
 */
export const appClientHooks: EntityHooks = {
  async beforeCreate(_ctx, values) {
    refusePasswordGrant(values.authorizedGrantTypes);
    const given = givenSecret(values);
    if (given)
      return { client_secret_hash: await hashChosenClientSecret(given), first_party: false };
    const secret = crypto.randomBytes(24).toString('base64url');
    values.generatedSecret = secret;
    return { client_secret_hash: hashClientSecret(secret), first_party: false };
  },
  async afterCreate(_ctx, _id, values) {
    return values.generatedSecret ? { clientSecret: values.generatedSecret } : {};
  },
  async beforeUpdate(ctx, id, values) {
    const { rows } = await ctx.sql.query<{ client_id: string; first_party: boolean }>(
      'SELECT client_id, first_party FROM oauth_client WHERE id = $1',
      [id],
    );
    const secret = givenSecret(values);
    if (
      rows[0]?.first_party &&
      ((values.clientId !== undefined && values.clientId !== rows[0].client_id) ||
        secret !== undefined)
    ) {
      throw new AppError(409, 'conflict.builtInClient');
    }
    if (!rows[0]?.first_party) refusePasswordGrant(values.authorizedGrantTypes);
    return secret === undefined ? {} : { client_secret_hash: await hashChosenClientSecret(secret) };
  },
  async beforeDelete(ctx, ids) {
    const { rows } = await ctx.sql.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM oauth_client WHERE id = ANY($1::bigint[]) AND (first_party OR client_id = $2)',
      [ids, BROWSER_CLIENT_ID],
    );
    if (rows[0]!.n > 0) throw new AppError(409, 'conflict.builtInClient');
  },
};

function refusePasswordGrant(grants: unknown) {
  if (Array.isArray(grants) && (grants.includes('password') || grants.includes('mobile'))) {
    throw new AppError(400, 'validation.passwordGrantFirstParty', {
      fields: [{ field: 'authorizedGrantTypes', key: 'validation.passwordGrantFirstParty' }],
    });
  }
}
