import type { Revenue, RevenuePeriod, RevenueQuery, RevenueRow } from '@shuili/contract';
import type { Database, Sql } from '../../../db/database';
import type { AuthContext } from '../../../http/request-context';
import { tenantTimeZone } from '../../iot/telemetry/telemetry-settings';
import { num, PERIOD_PATTERN, rangeBounds } from './report-range';

const BUCKET = (column: string) => `to_char(date_trunc($4, ${column} AT TIME ZONE $3), $5)`;

/**
 * Revenue: what the ledger posted for consumption (settle, consumption) per period, less its
 * reversals, and the same money by billing mode and tier from the sessions the postings end
 * (their tier parts: a session crossing a tier boundary counts in each tier by its part). A
 * posting of no session (none should be) or parts that do not add up to the posted amount leave
 * an unallocated amount, shown, never hidden.
 */
export class RevenueService {
  constructor(private readonly db: Database) {}

  revenue(auth: AuthContext, query: RevenueQuery): Promise<Revenue> {
    return this.db.tenant(auth, (sql) => this.build(sql, auth.tenantId, query));
  }

  async build(sql: Sql, tenantId: string, query: RevenueQuery): Promise<Revenue> {
    const timeZone = await tenantTimeZone(sql);
    const { from, to } = rangeBounds('$2', '$6', '$3');
    const params = [
      tenantId,
      query.start,
      timeZone,
      query.period,
      PERIOD_PATTERN[query.period],
      query.end,
    ];
    const inRange = `t.tenant_id = $1 AND t.created_at >= ${from} AND t.created_at < ${to}`;
    const { rows: ledger } = await sql.query<{ period: string; posted: number; reversed: number }>(
      `SELECT ${BUCKET('t.created_at')} AS period,
              ${num(`sum(t.amount_fen) FILTER (WHERE t.kind IN ('settle', 'consumption'))`)} AS posted,
              ${num(`sum(t.amount_fen) FILTER (WHERE t.kind = 'reversal')`)} AS reversed
         FROM billing_txn t
         LEFT JOIN billing_txn o ON o.tenant_id = t.tenant_id AND o.id = t.reverses_txn_id
        WHERE ${inRange}
          AND (t.kind IN ('settle', 'consumption')
               OR (t.kind = 'reversal' AND o.kind IN ('settle', 'consumption')))
        GROUP BY 1`,
      params,
    );
    // Each posting's amount split over its session's tier parts in proportion to their exact
    // amounts (pricing's TierPart.exactFen) by largest remainders, so the
    // parts of a posting add up to it to the fen. No parts: one part of tier 0. Energy is not
    // split by tier: it goes with the first part.
    const { rows } = await sql.query<RevenueRow>(
      `WITH parts AS (
         SELECT t.id, t.created_at, t.amount_fen, s.billing_mode, s.volume_m3, s.energy_kwh,
                p.part, coalesce(p.ordinality, 1) AS ordinality,
                coalesce((p.part->>'exactFen')::numeric, (p.part->>'amountFen')::numeric) AS exact
           FROM billing_txn t
           LEFT JOIN billing_session s ON s.tenant_id = t.tenant_id AND s.settle_txn_id = t.id
           LEFT JOIN LATERAL jsonb_array_elements(
                       CASE WHEN jsonb_typeof(s.tier_parts) = 'array'
                             AND jsonb_array_length(s.tier_parts) > 0 THEN s.tier_parts END)
                     WITH ORDINALITY AS p(part, ordinality) ON true
          WHERE ${inRange} AND t.kind IN ('settle', 'consumption')),
       shares AS (
         SELECT parts.*, sum(exact) OVER (PARTITION BY id) AS total_exact FROM parts),
       floored AS (
         SELECT shares.*,
                CASE WHEN total_exact > 0 THEN amount_fen * exact / total_exact END AS fair,
                CASE WHEN total_exact > 0 THEN floor(amount_fen * exact / total_exact) END AS share
           FROM shares),
       ranked AS (
         SELECT floored.*,
                amount_fen - sum(share) OVER (PARTITION BY id) AS remainder,
                row_number() OVER (PARTITION BY id ORDER BY fair - share DESC, ordinality) AS rank
           FROM floored),
       allotted AS (
         SELECT ranked.*,
                CASE WHEN share IS NULL THEN CASE WHEN ordinality = 1 THEN amount_fen ELSE 0 END
                     ELSE share + CASE WHEN rank <= remainder THEN 1 ELSE 0 END END AS allotted
           FROM ranked)
       SELECT ${BUCKET('created_at')} AS period, coalesce(billing_mode, '') AS "billingMode",
              coalesce((part->>'tier')::int, 0) AS tier,
              ${num(`sum(CASE WHEN part IS NULL THEN volume_m3 ELSE (part->>'volumeM3')::numeric END)`)} AS "waterM3",
              ${num('sum(energy_kwh) FILTER (WHERE ordinality = 1)')} AS "energyKwh",
              count(DISTINCT id)::int AS sessions,
              ${num('sum(allotted)')} AS "amountFen"
         FROM allotted
        GROUP BY 1, 2, 3
        ORDER BY 1, 2, 3`,
      params,
    );
    const allocated = new Map<string, number>();
    for (const row of rows) {
      row.waterM3 = Math.round(row.waterM3 * 1000) / 1000;
      row.energyKwh = Math.round(row.energyKwh * 1000) / 1000;
      allocated.set(row.period, (allocated.get(row.period) ?? 0) + row.amountFen);
    }
    const periods: RevenuePeriod[] = ledger
      .map((one) => ({
        period: one.period,
        postedFen: one.posted,
        reversedFen: one.reversed,
        netFen: one.posted - one.reversed,
        unallocatedFen: one.posted - (allocated.get(one.period) ?? 0),
      }))
      .sort((a, b) => a.period.localeCompare(b.period));
    const total: RevenuePeriod = {
      period: '',
      postedFen: 0,
      reversedFen: 0,
      netFen: 0,
      unallocatedFen: 0,
    };
    for (const one of periods) {
      total.postedFen += one.postedFen;
      total.reversedFen += one.reversedFen;
      total.netFen += one.netFen;
      total.unallocatedFen += one.unallocatedFen;
    }
    return { timeZone, period: query.period, rows, periods, total };
  }
}
