import type { Database } from '../../db/database';

export interface RateRule {
  /** Attempts allowed in one window. */
  limit: number;
  windowSeconds: number;
  /** How long the key stays locked once over the limit; 0: until the window ends. */
  lockSeconds: number;
  /**
   * Growing waits below the limit: after the first `free` attempts of a window, each one makes
   * the next wait `firstSeconds`, then twice as long each time.
   */
  backoff?: { free: number; firstSeconds: number };
}

/** Login and send limits, shared by every node through the database. */
export const RATE_RULES = {
  /** Attempts at the signed-in user's own password (a success resets it). */
  accountAttempts: { limit: 5, windowSeconds: 900, lockSeconds: 300 },
  /**
   * Sign-in attempts at one account from one client address (a success resets it): three come
   * at once, then the address waits 1, 2, 4 ... 64 s between attempts, and the eleventh is
   * refused for an hour. Only that address waits: the owner elsewhere is not slowed.
   */
  signInPerAccountAndIp: {
    limit: 10,
    windowSeconds: 900,
    lockSeconds: 3600,
    backoff: { free: 3, firstSeconds: 1 },
  },
  /** Marks a client address as counted once a day among those that tried an account. */
  signInAddressSeen: { limit: 1, windowSeconds: 86_400, lockSeconds: 0 },
  /**
   * Client addresses that tried one account in a day (a success resets it). One address, however
   * busy, is only slowed; from the fourth (a guess spread over many addresses) the password alone
   * is not enough for a day: a code sent to the account's mobile or e-mail must come with it.
   * Its "lock" is that requirement; nobody is locked out.
   */
  signInPerAccount: { limit: 3, windowSeconds: 86_400, lockSeconds: 86_400 },
  /** Password attempts per client address, across accounts (a success gives its attempt back). */
  ipAttempts: { limit: 30, windowSeconds: 900, lockSeconds: 900 },
  /** Codes sent per client address. */
  captchaSendsPerIp: { limit: 20, windowSeconds: 3600, lockSeconds: 3600 },
  /** One code a minute per recipient. */
  captchaSendsPerRecipient: { limit: 1, windowSeconds: 60, lockSeconds: 0 },
  /** Wrong codes per recipient across all its codes: ten an hour, the next locks (new codes do not reset it). */
  captchaFailuresPerRecipient: { limit: 10, windowSeconds: 3600, lockSeconds: 3600 },
  /** Second-factor codes per account: five wrong codes lock it for 15 minutes (a success resets it). */
  mfaAttempts: { limit: 5, windowSeconds: 300, lockSeconds: 900 },
  /** Tenant look-ups per client address (the login form asks as the user types). */
  tenantLookupsPerIp: { limit: 120, windowSeconds: 60, lockSeconds: 60 },
  /** Public trace page look-ups per client address (a shop's shoppers share one address). */
  traceLookupsPerIp: { limit: 120, windowSeconds: 60, lockSeconds: 60 },
} satisfies Record<string, RateRule>;

/**
 * The key of a client address: IPv6 clients are keyed by their /64, which one subscriber
 * usually holds whole, so rotating addresses inside it gains nothing.
 */
export function clientKey(ip: string): string {
  if (!ip.includes(':') || ip.startsWith('::ffff:')) return ip.replace(/^::ffff:/, '');
  const [head = ''] = ip.split('::');
  const groups = ip.includes('::') ? head.split(':').filter(Boolean) : ip.split(':');
  return `${[...groups, '0', '0', '0', '0'].slice(0, 4).join(':')}::/64`;
}

/** The wait a rule's backoff puts after the `hits`-th attempt of a window (0 when none). */
export function backoffSeconds(rule: RateRule, hits: number): number {
  if (!rule.backoff || hits < rule.backoff.free || hits >= rule.limit) return 0;
  return rule.backoff.firstSeconds * 2 ** (hits - rule.backoff.free);
}

/** Fixed-window counters with lock-outs, kept in the rate_limit table. */
export class RateLimitService {
  constructor(private readonly db: Database) {}

  /**
   * Counts one attempt first, atomically (the upsert's row lock orders concurrent attempts), and
   * answers how many seconds to wait when the key is locked or this attempt is over the limit,
   * else 0. Counting before the work is what stops a burst of parallel guesses.
   */
  async attempt(key: string, rule: RateRule): Promise<number> {
    return this.db.system(async (sql) => {
      const { rows } = await sql.query<{
        hits: number;
        locked: number | null;
        window_left: number;
      }>(
        `INSERT INTO rate_limit (key, hits, window_start) VALUES ($1, 1, now())
         ON CONFLICT (key) DO UPDATE SET
           hits = CASE WHEN rate_limit.locked_until > now() THEN rate_limit.hits
                       WHEN rate_limit.window_start <= now() - make_interval(secs => $2) THEN 1
                       ELSE rate_limit.hits + 1 END,
           window_start = CASE WHEN rate_limit.locked_until > now() THEN rate_limit.window_start
                               WHEN rate_limit.window_start <= now() - make_interval(secs => $2) THEN now()
                               ELSE rate_limit.window_start END
         RETURNING hits,
                   CASE WHEN locked_until > now() THEN ceil(extract(epoch FROM locked_until - now()))::int END AS locked,
                   greatest(1, ceil(extract(epoch FROM window_start + make_interval(secs => $2) - now())))::int AS window_left`,
        [key, rule.windowSeconds],
      );
      const row = rows[0]!;
      if (row.locked) return row.locked;
      if (row.hits <= rule.limit) {
        const wait = backoffSeconds(rule, row.hits);
        // The wait before the next attempt is a short lock that leaves the count alone.
        if (wait > 0)
          await sql.query(
            `UPDATE rate_limit SET locked_until = now() + make_interval(secs => $2) WHERE key = $1`,
            [key, wait],
          );
        return 0;
      }
      if (rule.lockSeconds === 0) return row.window_left;
      await sql.query(
        `UPDATE rate_limit SET locked_until = now() + make_interval(secs => $2), hits = 0, window_start = now() WHERE key = $1`,
        [key, rule.lockSeconds],
      );
      return rule.lockSeconds;
    });
  }

  /** Seconds until the longest lock among the keys ends, or 0 when none is locked. */
  async lockedFor(keys: string[]): Promise<number> {
    const { rows } = await this.db.system((sql) =>
      sql.query<{ seconds: number | null }>(
        `SELECT ceil(extract(epoch FROM max(locked_until) - now()))::int AS seconds
           FROM rate_limit WHERE key = ANY($1) AND locked_until > now()`,
        [keys],
      ),
    );
    return Number(rows[0]?.seconds ?? 0);
  }

  /** Gives an attempt back (a success that should not count against a shared address). */
  async refund(key: string): Promise<void> {
    await this.db.system((sql) =>
      sql.query(
        `UPDATE rate_limit SET hits = greatest(hits - 1, 0) WHERE key = $1 AND (locked_until IS NULL OR locked_until <= now())`,
        [key],
      ),
    );
  }

  async reset(key: string): Promise<void> {
    await this.db.system((sql) => sql.query('DELETE FROM rate_limit WHERE key = $1', [key]));
  }
}
