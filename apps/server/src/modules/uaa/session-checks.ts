import type { Database } from '../../db/database';
import { sessionRepo, type SessionLimits } from './session.repo';

/** The channel on which the database announces sessions that ended (migration 007). */
export const SESSION_CHANNEL = 'shuili_session';

/** How long a live session's state is trusted without reading it again. */
export const SESSION_CHECK_TTL_MS = 5_000;
/** Sessions remembered at most (a few hundred bytes each). */
const CAPACITY = 10_000;
const RELISTEN_MS = 2_000;

export interface SessionCheck {
  ok: boolean;
  /** last_seen_at is over a minute old: the caller records activity. */
  stale: boolean;
}

/**
 * The session check of every request. A live session's state is remembered for up to
 * SESSION_CHECK_TTL_MS (never past the session's own end), and only while this node listens to
 * the database's announcements of ended sessions: a trigger announces every revocation,
 * shortening and deletion, whatever code or node made it, when it commits, and the session is
 * forgotten at once. The TTL only bounds how long a missed announcement could go unnoticed.
 * While not listening (before start, after a lost connection until listening again) nothing is
 * remembered and every check reads the database, as it always did.
 */
export class SessionChecks {
  private readonly live = new Map<string, number>(); // session id → trusted until (ms)
  /** Bumped by every announcement: a read that started before one is not remembered. */
  private generation = 0;
  private listener: { close(): Promise<void> } | undefined;
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly db: Database,
    private readonly ttlMs = SESSION_CHECK_TTL_MS,
    /** Idle and absolute limits; a remembered session is never trusted past either. */
    private readonly limits?: SessionLimits,
  ) {}

  /** Whether ended sessions are announced to this node now (else every check reads the database). */
  get listening(): boolean {
    return this.listener !== undefined;
  }

  async start(): Promise<void> {
    this.stopped = false;
    try {
      const listener = await this.db.listen(SESSION_CHANNEL, {
        message: (sessionId) => this.forget(sessionId),
        lost: () => {
          this.listener = undefined;
          this.forgetAll();
          this.listenLater();
        },
      });
      if (this.stopped) await listener.close();
      else this.listener = listener;
    } catch {
      this.listenLater();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    this.forgetAll();
    const listener = this.listener;
    this.listener = undefined;
    await listener?.close();
  }

  async check(sessionId: string): Promise<SessionCheck> {
    const until = this.live.get(sessionId);
    if (until !== undefined) {
      if (this.listener && until > Date.now()) return { ok: true, stale: false };
      this.live.delete(sessionId);
    }
    const generation = this.generation;
    const state = await sessionRepo.stateOf(this.db, sessionId, this.limits);
    const ok = Boolean(state && !state.revoked && !state.expired);
    if (ok && this.listener && generation === this.generation) {
      if (this.live.size >= CAPACITY) this.live.delete(this.live.keys().next().value!);
      this.live.set(sessionId, Date.now() + Math.min(this.ttlMs, state!.ends_in_ms));
    }
    return { ok, stale: Boolean(state?.stale) };
  }

  /** Forgets one session (it ended): the next check reads the database. */
  forget(sessionId: string): void {
    this.generation += 1;
    this.live.delete(sessionId);
  }

  private forgetAll(): void {
    this.generation += 1;
    this.live.clear();
  }

  private listenLater(): void {
    if (this.stopped) return;
    clearTimeout(this.retry);
    this.retry = setTimeout(() => void this.start(), RELISTEN_MS);
    this.retry.unref();
  }
}
