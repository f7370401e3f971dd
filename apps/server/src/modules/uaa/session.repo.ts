import crypto from 'node:crypto';
import type { Database, Sql } from '../../db/database';

interface SessionState {
  revoked: boolean;
  expired: boolean;
  stale: boolean;
}

/**
 * A session is over when revoked, past its end, older than SESSION_MAX_SECONDS (checked here
 * too, not only through expires_at) or unused for SESSION_IDLE_SECONDS ($2 idle, $3 max; null:
 * that limit is not checked).
 */
const SESSION_OVER = `(expires_at <= now()
        OR coalesce(created_at <= now() - make_interval(secs => $3::int), false)
        OR coalesce(last_seen_at <= now() - make_interval(secs => $2::int), false))`;

const SESSION_STATE = `SELECT revoked_at IS NOT NULL AS revoked, ${SESSION_OVER} AS expired,
        last_seen_at < now() - interval '60 seconds' AS stale
   FROM user_session WHERE id = $1`;

/** ends_in_ms: until the earliest of its end, absolute end and idle end. */
const SESSION_STATE_AND_END = `SELECT revoked_at IS NOT NULL AS revoked, ${SESSION_OVER} AS expired,
        last_seen_at < now() - interval '60 seconds' AS stale,
        (extract(epoch FROM least(expires_at,
            coalesce(created_at + make_interval(secs => $3::int), expires_at),
            coalesce(last_seen_at + make_interval(secs => $2::int), expires_at)) - now()) * 1000)::float8 AS ends_in_ms
   FROM user_session WHERE id = $1`;

/** The idle and absolute limits of sessions (SESSION_IDLE_SECONDS, SESSION_MAX_SECONDS). */
export interface SessionLimits {
  /** null: no idle timeout. */
  idleSeconds: number | null;
  maxSeconds: number;
}

export interface NewSession {
  tenantId: string;
  userId: string;
  clientId: string;
  grantType: string;
  ip: string;
  userAgent: string | undefined;
  refreshSeconds: number;
  /** The absolute end (SESSION_MAX_SECONDS) caps the first refresh token's life too. */
  maxSeconds: number;
}

export interface RefreshRow {
  token_id: string;
  session_id: string;
  used_at: Date | null;
  used_seconds_ago: number;
  token_expired: boolean;
  session_revoked: boolean;
  session_expired: boolean;
  /** Unused for longer than SESSION_IDLE_SECONDS. */
  session_idle: boolean;
  tenant_id: string;
  user_id: string;
  client_id: string;
}

export function hashRefreshToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

/** A refresh token: 256 random bits, kept only as a hash. */
export function newRefreshToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/** Sessions and their refresh-token chains (system transactions: they are checked before tenancy). */
export const sessionRepo = {
  async create(sql: Sql, session: NewSession, refreshToken: string): Promise<string> {
    const id = crypto.randomUUID();
    await sql.query(
      `INSERT INTO user_session (id, tenant_id, user_id, client_id, grant_type, ip, user_agent, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(secs => least($8::int, $9::int)))`,
      [
        id,
        session.tenantId,
        session.userId,
        session.clientId,
        session.grantType,
        session.ip,
        session.userAgent ?? null,
        session.refreshSeconds,
        session.maxSeconds,
      ],
    );
    await this.addRefreshToken(sql, session.tenantId, id, refreshToken, session.refreshSeconds);
    return id;
  },

  async addRefreshToken(
    sql: Sql,
    tenantId: string,
    sessionId: string,
    token: string,
    seconds: number,
  ): Promise<void> {
    await sql.query(
      `INSERT INTO refresh_token (tenant_id, session_id, token_hash, expires_at)
       VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
      [tenantId, sessionId, hashRefreshToken(token), seconds],
    );
  },

  async findRefresh(
    sql: Sql,
    token: string,
    limits: SessionLimits,
  ): Promise<RefreshRow | undefined> {
    const { rows } = await sql.query<RefreshRow>(
      `SELECT rt.id AS token_id, rt.session_id, rt.used_at, rt.expires_at <= now() AS token_expired,
              coalesce(extract(epoch FROM now() - rt.used_at), 0)::float8 AS used_seconds_ago,
              s.revoked_at IS NOT NULL AS session_revoked,
              (s.expires_at <= now() OR s.created_at <= now() - make_interval(secs => $3::int)) AS session_expired,
              coalesce(s.last_seen_at <= now() - make_interval(secs => $2::int), false) AS session_idle,
              s.tenant_id, s.user_id, s.client_id
         FROM refresh_token rt JOIN user_session s ON s.id = rt.session_id
        WHERE rt.token_hash = $1 FOR UPDATE OF rt`,
      [hashRefreshToken(token), limits.idleSeconds, limits.maxSeconds],
    );
    return rows[0];
  },

  async markUsed(sql: Sql, tokenId: string): Promise<void> {
    await sql.query('UPDATE refresh_token SET used_at = now() WHERE id = $1', [tokenId]);
  },

  /** Slides the session's end along with the new refresh token, never past its absolute end. */
  async extend(sql: Sql, sessionId: string, seconds: number, maxSeconds: number): Promise<void> {
    await sql.query(
      `UPDATE user_session
          SET expires_at = least(now() + make_interval(secs => $2), created_at + make_interval(secs => $3)),
              last_seen_at = now()
        WHERE id = $1`,
      [sessionId, seconds, maxSeconds],
    );
  },

  async revoke(sql: Sql, sessionId: string, reason: string): Promise<void> {
    await sql.query(
      'UPDATE user_session SET revoked_at = now(), revoke_reason = $2 WHERE id = $1 AND revoked_at IS NULL',
      [sessionId, reason],
    );
  },

  async revokeAllOfUser(sql: Sql, userId: string, reason: string): Promise<number> {
    const { rows } = await sql.query(
      'UPDATE user_session SET revoked_at = now(), revoke_reason = $2 WHERE user_id = $1 AND revoked_at IS NULL RETURNING id',
      [userId, reason],
    );
    return rows.length;
  },

  /** Ends every other session of a user (a password change keeps the session that made it). */
  async revokeOthersOfUser(
    sql: Sql,
    userId: string,
    keepSessionId: string,
    reason: string,
  ): Promise<number> {
    const { rows } = await sql.query(
      `UPDATE user_session SET revoked_at = now(), revoke_reason = $3
        WHERE user_id = $1 AND id <> $2 AND revoked_at IS NULL RETURNING id`,
      [userId, keepSessionId, reason],
    );
    return rows.length;
  },

  async state(sql: Pick<Sql, 'query'>, sessionId: string, limits?: SessionLimits) {
    const { rows } = await sql.query<SessionState>(SESSION_STATE, [
      sessionId,
      limits?.idleSeconds ?? null,
      limits?.maxSeconds ?? null,
    ]);
    return rows[0];
  },

  /**
   * The state alone, one statement outside a transaction (the check of every request), with
   * how long the session has left, for SessionChecks to know how long it may remember it.
   */
  async stateOf(db: Database, sessionId: string, limits?: SessionLimits) {
    const { rows } = await db.systemStatement<SessionState & { ends_in_ms: number }>(
      SESSION_STATE_AND_END,
      [sessionId, limits?.idleSeconds ?? null, limits?.maxSeconds ?? null],
    );
    return rows[0];
  },

  /** A user's live sessions, newest first (the same limits as the check of every request). */
  async listLive(sql: Sql, userId: string, limits: SessionLimits) {
    const { rows } = await sql.query<{
      id: string;
      created_at: Date;
      last_seen_at: Date;
      ip: string | null;
      user_agent: string | null;
      grant_type: string;
    }>(
      `SELECT id, created_at, last_seen_at, ip, user_agent, grant_type FROM user_session
        WHERE user_id = $1 AND revoked_at IS NULL AND NOT ${SESSION_OVER}
        ORDER BY created_at DESC LIMIT 200`,
      [userId, limits.idleSeconds, limits.maxSeconds],
    );
    return rows;
  },

  /** Ends one session of a user (never another user's); answers whether it was live. */
  async revokeOfUser(sql: Sql, userId: string, sessionId: string, reason: string) {
    const { rows } = await sql.query(
      `UPDATE user_session SET revoked_at = now(), revoke_reason = $3
        WHERE id = $2 AND user_id = $1 AND revoked_at IS NULL RETURNING id`,
      [userId, sessionId, reason],
    );
    return rows.length > 0;
  },

  async touch(
    sql: Sql,
    sessionId: string,
    ip: string,
    userAgent: string | undefined,
  ): Promise<void> {
    await sql.query(
      'UPDATE user_session SET last_seen_at = now(), ip = $2, user_agent = coalesce($3, user_agent) WHERE id = $1',
      [sessionId, ip, userAgent ?? null],
    );
  },
};
