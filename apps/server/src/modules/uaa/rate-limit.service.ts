import type { Database } from '../../db/database';

export interface RateRule {
  /** Hits allowed in one window; reaching it locks the key. */
  limit: number;
  windowSeconds: number;
  lockSeconds: number;
}

/** Login and send limits, shared by every node through the database. */
export const RATE_RULES = {
  /** Wrong passwords per account. */
  accountFailures: { limit: 5, windowSeconds: 900, lockSeconds: 300 },
  /** Wrong passwords per client address, across accounts (password spraying). */
  ipFailures: { limit: 30, windowSeconds: 900, lockSeconds: 900 },
  /** Codes sent per client address. */
  captchaSendsPerIp: { limit: 20, windowSeconds: 3600, lockSeconds: 3600 },
  /** Tenant look-ups per client address (the login form asks as the user types). */
  tenantLookupsPerIp: { limit: 120, windowSeconds: 60, lockSeconds: 60 },
} satisfies Record<string, RateRule>;

/** Fixed-window counters with lock-outs, kept in the rate_limit table. */
export class RateLimitService {
  constructor(private readonly db: Database) {}

  /** Seconds until the longest lock among the keys ends, or 0 when none is locked. */
  async lockedFor(keys: string[]): Promise<number> {
    const { rows } = await this.db.system((sql) =>
      sql.query<{ seconds: string | null }>(
        `SELECT ceil(extract(epoch FROM max(locked_until) - now()))::int AS seconds
           FROM rate_limit WHERE key = ANY($1) AND locked_until > now()`,
        [keys],
      ),
    );
    return Number(rows[0]?.seconds ?? 0);
  }

  /** Counts one hit; answers the lock's length in seconds when this hit reached the limit, else 0. */
  async hit(key: string, rule: RateRule): Promise<number> {
    return this.db.system(async (sql) => {
      const { rows } = await sql.query<{ hits: number }>(
        `INSERT INTO rate_limit (key, hits, window_start) VALUES ($1, 1, now())
         ON CONFLICT (key) DO UPDATE SET
           hits = CASE WHEN rate_limit.window_start < now() - make_interval(secs => $2) THEN 1 ELSE rate_limit.hits + 1 END,
           window_start = CASE WHEN rate_limit.window_start < now() - make_interval(secs => $2) THEN now() ELSE rate_limit.window_start END
         RETURNING hits`,
        [key, rule.windowSeconds],
      );
      if ((rows[0]?.hits ?? 0) < rule.limit) return 0;
      await sql.query(
        `UPDATE rate_limit SET locked_until = now() + make_interval(secs => $2), hits = 0, window_start = now() WHERE key = $1`,
        [key, rule.lockSeconds],
      );
      return rule.lockSeconds;
    });
  }

  /** Counts a hit and answers the remaining lock when the key is (now) locked. */
  async consume(key: string, rule: RateRule): Promise<number> {
    const locked = await this.lockedFor([key]);
    if (locked > 0) return locked;
    return this.hit(key, rule);
  }

  async reset(key: string): Promise<void> {
    await this.db.system((sql) => sql.query('DELETE FROM rate_limit WHERE key = $1', [key]));
  }
}
