import { AnnouncedCache, AnnouncedChecks } from '../../db/announced-cache';
import type { Database } from '../../db/database';
import { sessionRepo, type SessionLimits } from './session.repo';

/** The channel on which the database announces sessions that ended (migration 007). */
export const SESSION_CHANNEL = 'shuili_session';

/** How long a live session's state is trusted without reading it again. */
export const SESSION_CHECK_TTL_MS = 5_000;
/** Sessions remembered at most (a few hundred bytes each). */
const CAPACITY = 10_000;

export interface SessionCheck {
  ok: boolean;
  /** last_seen_at is over a minute old: the caller records activity. */
  stale: boolean;
  /** How long until the session ends by itself (idle, absolute or refresh end), when ok. */
  endsInMs: number;
}

/**
 * The session check of every request (and of every browser MQTT connection). A live session's
 * state is remembered for up to SESSION_CHECK_TTL_MS (never past the session's own end) while
 * this node hears the database announce ended sessions: a trigger announces every revocation,
 * shortening and deletion, and the session is forgotten at once (AnnouncedCache).
 */
export class SessionChecks extends AnnouncedChecks<number> {
  /** Remembered live sessions: when each ends by itself (epoch ms). */
  protected readonly cache: AnnouncedCache<number>;

  constructor(
    private readonly db: Database,
    ttlMs = SESSION_CHECK_TTL_MS,
    /** Idle and absolute limits; a remembered session is never trusted past either. */
    private readonly limits?: SessionLimits,
  ) {
    super();
    this.cache = new AnnouncedCache(db, { channel: SESSION_CHANNEL, ttlMs, capacity: CAPACITY });
  }

  async check(sessionId: string): Promise<SessionCheck> {
    let read: SessionCheck | undefined;
    const endsAt = await this.cache.get(sessionId, async () => {
      const state = await sessionRepo.stateOf(this.db, sessionId, this.limits);
      const ok = Boolean(state && !state.revoked && !state.expired);
      read = { ok, stale: Boolean(state?.stale), endsInMs: ok ? state!.ends_in_ms : 0 };
      return { value: Date.now() + read.endsInMs, keepMs: read.endsInMs };
    });
    // Remembered: alive, and recently enough recorded as active.
    return read ?? { ok: true, stale: false, endsInMs: endsAt - Date.now() };
  }

  /** Forgets one session (it ended): the next check reads the database. */
  forget(sessionId: string): void {
    this.cache.announced(sessionId);
  }
}
