import type { DistributeYearResult } from '@shuili/contract';
import type { Database } from '../../../db/database';
import type { AuthContext } from '../../../http/request-context';

/** The yearly distribution of water rights (spec /skgg/distribution). */
export class WaterRightService {
  constructor(private readonly db: Database) {}

  /**
   * Makes the year's water right of every enabled household lacking one, with its default quota
   * (irrigated area × its class's quota per mu); rows that exist, edited or not, are kept. Safe to
   * call again: the (household, year) key lets each row be made once, even by two calls at once.
   */
  async distributeYear(auth: AuthContext, year: number): Promise<DistributeYearResult> {
    return this.db.tenant(auth, async (sql) => {
      const { rows } = await sql.query<{ created: number; total: number }>(
        `WITH made AS (
           INSERT INTO billing_water_right (tenant_id, household_id, year, quota_m3, created_by, updated_by)
           SELECT h.tenant_id, h.id, $1::int,
                  coalesce(round((h.irrigated_area * c.quota_per_mu)::numeric, 2)::float8, 0),
                  $2::bigint, $2::bigint
             FROM billing_household h LEFT JOIN billing_price_class c ON c.id = h.price_class_id
            WHERE h.status = 1
           ON CONFLICT DO NOTHING
           RETURNING 1)
         -- The statement sees the rows from before its insert: those kept plus those made.
         SELECT (SELECT count(*) FROM made)::int AS created,
                ((SELECT count(*) FROM billing_water_right WHERE year = $1::int)
                  + (SELECT count(*) FROM made))::int AS total`,
        [year, auth.userId],
      );
      const { created, total } = rows[0]!;
      return { created, total };
    });
  }
}
