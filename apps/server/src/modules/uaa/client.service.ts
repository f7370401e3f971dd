import crypto from 'node:crypto';
import type { Database } from '../../db/database';
import { oauthError } from '../../http/app-error';
import { hashPassword, verifyPassword } from './password-hasher';

export interface OAuthClient {
  clientId: string;
  grantTypes: string[];
  scopes: string[];
  accessTokenSeconds: number;
  refreshTokenSeconds: number;
  firstParty: boolean;
}

/** Generated client secrets are long random strings (or the public `browser` one): SHA-256 suffices. */
export function hashClientSecret(secret: string): string {
  return crypto.createHash('sha256').update(secret).digest('hex');
}

/**
 * A secret an administrator chose may be guessable like a password, so it is stored like one
 * (argon2id): a leaked table does not give it away cheaply.
 */
export function hashChosenClientSecret(secret: string): Promise<string> {
  return hashPassword(secret);
}

const isArgon2 = (hash: string) => hash.startsWith('$argon2');

/**
 * Authenticates OAuth clients from their Basic authorization header. The client is read at every
 * token request, never remembered: an administrator's change of its secret or grants, or its
 * removal, holds at once on every node (one indexed row beside a sign-in's dozen statements).
 */
export class ClientService {
  constructor(private readonly db: Database) {}

  private async load(clientId: string) {
    // One statement, one round trip (no transaction around a single read).
    const { rows } = await this.db.systemStatement<{
      client_secret_hash: string;
      authorized_grant_types: string[];
      scope: string[];
      access_token_validity: number;
      refresh_token_validity: number;
      first_party: boolean;
    }>('SELECT * FROM oauth_client WHERE client_id = $1', [clientId]);
    const row = rows[0];
    if (!row) return undefined;
    return {
      hash: row.client_secret_hash,
      client: {
        clientId,
        grantTypes: row.authorized_grant_types,
        scopes: row.scope,
        accessTokenSeconds: row.access_token_validity,
        refreshTokenSeconds: row.refresh_token_validity,
        firstParty: row.first_party,
      },
    };
  }

  /** The client named by `Authorization: Basic base64(id:secret)`, or invalid_client (401). */
  async authenticate(authorization: string | undefined): Promise<OAuthClient> {
    const invalid = () => oauthError(401, 'invalid_client', 'auth.clientInvalid');
    if (!authorization?.toLowerCase().startsWith('basic ')) throw invalid();
    const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 1) throw invalid();
    const clientId = safeDecode(decoded.slice(0, colon));
    const secret = safeDecode(decoded.slice(colon + 1));
    if (clientId === undefined || secret === undefined) throw invalid();
    const entry = await this.load(clientId);
    if (entry && isArgon2(entry.hash)) {
      if (!(await verifyPassword(entry.hash, secret))) throw invalid();
      return entry.client;
    }
    const given = Buffer.from(hashClientSecret(secret), 'hex');
    const expected = Buffer.from(entry?.hash ?? hashClientSecret(crypto.randomUUID()), 'hex');
    if (!entry || !crypto.timingSafeEqual(given, expected)) throw invalid();
    return entry.client;
  }
}

/** RFC 6749 §2.3.1 form-encodes id and secret; a malformed escape is a bad client, not a crash. */
function safeDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}
