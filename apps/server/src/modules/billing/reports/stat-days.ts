import type { StatisticsGroup } from '@shuili/contract';
import type { Sql } from '../../../db/database';
import { num } from './report-range';

/**
 * Money statistics of closed days (migration 023): a day two days past in the tenant's zone no
 * longer changes (the ledger is append-only and an entry's created_at is when it was posted), so
 * its sums per village, controller and cashier are kept the first time a query covers it and
 * read instead of its entries after. Days still open are read from the ledger itself.
 */

/** The next calendar day of YYYY-MM-DD. */
export function nextDay(day: string): string {
  const at = new Date(`${day}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + 1);
  return at.toISOString().slice(0, 10);
}

/**
 * Makes sure every closed day of [start, end] is summed, and answers the last of them (null when
 * the range has none). The days are claimed first (ON CONFLICT DO NOTHING), so a query running
 * beside this one waits for its commit instead of summing them again.
 */
export async function sumClosedDays(
  sql: Sql,
  tenantId: string,
  timeZone: string,
  start: string,
  end: string,
): Promise<string | null> {
  const { rows } = await sql.query<{ last: string }>(
    `SELECT least($2::date, (now() AT TIME ZONE $1)::date - 2)::text AS last`,
    [timeZone, end],
  );
  const last = rows[0]!.last;
  if (last < start) return null;
  const { rows: claimed } = await sql.query<{ day: string }>(
    `INSERT INTO billing_stat_day_done (tenant_id, time_zone, day)
     SELECT $1, $2, d::date FROM generate_series($3::date, $4::date, interval '1 day') d
     ON CONFLICT DO NOTHING
     RETURNING day::text AS day`,
    [tenantId, timeZone, start, last],
  );
  const days = claimed.map((row) => row.day).sort();
  // A month at a time: each statement stays well within the pool's statement timeout however
  // long the range (a first year of a million entries is about a second per month, loaded).
  for (let at = 0; at < days.length; at += 31)
    await sumDays(sql, tenantId, timeZone, days.slice(at, at + 31));
  return last;
}

/** Sums the given days (sorted) of the ledger into billing_stat_day. */
async function sumDays(sql: Sql, tenantId: string, timeZone: string, days: string[]) {
  const dayOf = `(t.created_at AT TIME ZONE $2)::date`;
  const inRange = `t.tenant_id = $1 AND t.created_at >= ($4::date::timestamp AT TIME ZONE $2)
                   AND t.created_at < (($5::date + 1)::timestamp AT TIME ZONE $2)`;
  const sums = (kind: string) =>
    `CASE WHEN ${kind} IN ('settle', 'consumption') THEN amount END,
     CASE WHEN ${kind} = 'recharge' THEN amount END,
     CASE WHEN ${kind} = 'refund' THEN amount END`;
  await sql.query(
    `INSERT INTO billing_stat_day (tenant_id, time_zone, day, village, controller_id, cashier_id,
       charged_fen, recharged_fen, refunded_fen)
     SELECT $1, $2, day, village, controller_id, cashier_id,
            coalesce(sum(charged), 0), coalesce(sum(recharged), 0), coalesce(sum(refunded), 0)
       FROM (SELECT day, village, controller_id, cashier_id, ${sums('kind')}
               FROM (SELECT ${dayOf} AS day, h.village, t.controller_id, t.cashier_id, t.kind,
                            t.amount_fen AS amount
                       FROM billing_txn t
                       LEFT JOIN billing_household h ON h.id = t.household_id
                      WHERE ${inRange} AND t.kind IN ('settle', 'consumption', 'recharge', 'refund')
                     UNION ALL
                     SELECT ${dayOf}, h.village, o.controller_id, coalesce(t.cashier_id, o.cashier_id),
                            o.kind, -t.amount_fen
                       FROM billing_txn t
                       JOIN billing_txn o ON o.tenant_id = t.tenant_id AND o.id = t.reverses_txn_id
                       LEFT JOIN billing_household h ON h.id = o.household_id
                      WHERE ${inRange} AND t.kind = 'reversal') e
              WHERE day = ANY($3::date[])) x (day, village, controller_id, cashier_id, charged, recharged, refunded)
      GROUP BY day, village, controller_id, cashier_id`,
    [tenantId, timeZone, days, days[0], days[days.length - 1]],
  );
}

const KEYS: Record<StatisticsGroup, string> = {
  village: 's.village',
  well: 's.controller_id::text',
  cashier: 's.cashier_id::text',
};

/**
 * The kept sums per bucket and group of [$2, $6] ($1 tenant, $3 zone, $4 period, $5 its
 * pattern), shaped as the ledger's own query answers them.
 */
export function closedDaysSql(by: StatisticsGroup): string {
  return `SELECT to_char(date_trunc($4, s.day::timestamp), $5) AS period, ${KEYS[by]} AS "groupKey",
                 ${num('sum(s.charged_fen)')} AS "chargedFen",
                 ${num('sum(s.recharged_fen)')} AS "rechargedFen",
                 ${num('sum(s.refunded_fen)')} AS "refundedFen"
            FROM billing_stat_day s
           WHERE s.tenant_id = $1 AND s.time_zone = $3 AND s.day >= $2::date AND s.day <= $6::date
           GROUP BY 1, 2`;
}
