import type { Statistics, StatisticsGroup, StatisticsQuery, StatisticsRow } from '@shuili/contract';
import type { Database, Sql } from '../../../db/database';
import type { AuthContext } from '../../../http/request-context';
import { tenantTimeZone } from '../../iot/telemetry/telemetry-settings';
import { num, PERIOD_PATTERN, rangeBounds } from './report-range';
import { closedDaysSql, nextDay, sumClosedDays } from './stat-days';

interface Part {
  period: string;
  groupKey: string | null;
  waterM3?: number;
  energyKwh?: number;
  sessions?: number;
  chargedFen?: number;
  rechargedFen?: number;
  refundedFen?: number;
}

/**
 * What each grouping has: a cashier draws no water and charges no consumption (sessions have no
 * cashier), a well takes no recharges.
 */
const HAS = {
  village: { water: true, recharge: true, charge: true },
  well: { water: true, recharge: false, charge: true },
  cashier: { water: false, recharge: true, charge: false },
} as const satisfies Record<
  StatisticsGroup,
  { water: boolean; recharge: boolean; charge: boolean }
>;

/**
 * How each grouping names a transaction's key: the village of its household (a join with the
 * households, a few thousand rows hashed once), its controller, its cashier; a reversal counts
 * under its original's key (its cashier: who reversed it, else the original's).
 */
const MONEY_KEYS: Record<StatisticsGroup, { join: string; key: string; reversedKey: string }> = {
  village: {
    join: 'LEFT JOIN billing_household h ON h.id = coalesce(o.household_id, t.household_id)',
    key: 'h.village',
    reversedKey: 'h.village',
  },
  well: { join: '', key: 't.controller_id::text', reversedKey: 'o.controller_id::text' },
  cashier: {
    join: '',
    key: 't.cashier_id::text',
    reversedKey: 'coalesce(t.cashier_id, o.cashier_id)::text',
  },
};

/**
 * The money of ledger transactions per bucket and group, aggregated to the group in the
 * database (a year of a million entries by village is one scan, one hash join with the
 * households and a few hundred groups, never a row per household and day): consumption charged
 * (settle, consumption), recharged and refunded, each less its reversals, which count in the
 * bucket they were posted in. Reversals, few, are read apart with their originals.
 */
function moneySql(by: StatisticsGroup, from: string, to: string) {
  const bucket = `date_trunc($4, t.created_at AT TIME ZONE $3)`;
  const keys = MONEY_KEYS[by];
  const inRange = `t.tenant_id = $1 AND t.created_at >= ${from} AND t.created_at < ${to}`;
  return `SELECT to_char(bucket, $5) AS period, key AS "groupKey",
                 ${num('sum(charged)')} AS "chargedFen", ${num('sum(recharged)')} AS "rechargedFen",
                 ${num('sum(refunded)')} AS "refundedFen"
            FROM (SELECT ${bucket} AS bucket, ${keys.key} AS key,
                         sum(t.amount_fen) FILTER (WHERE t.kind IN ('settle', 'consumption')) AS charged,
                         sum(t.amount_fen) FILTER (WHERE t.kind = 'recharge') AS recharged,
                         sum(t.amount_fen) FILTER (WHERE t.kind = 'refund') AS refunded
                    FROM billing_txn t
                    ${keys.join.replace('coalesce(o.household_id, t.household_id)', 't.household_id')}
                   WHERE ${inRange} AND t.kind IN ('settle', 'consumption', 'recharge', 'refund')
                   GROUP BY 1, 2
                  UNION ALL
                  SELECT ${bucket}, ${keys.reversedKey},
                         -sum(t.amount_fen) FILTER (WHERE o.kind IN ('settle', 'consumption')),
                         -sum(t.amount_fen) FILTER (WHERE o.kind = 'recharge'),
                         -sum(t.amount_fen) FILTER (WHERE o.kind = 'refund')
                    FROM billing_txn t
                    JOIN billing_txn o ON o.tenant_id = t.tenant_id AND o.id = t.reverses_txn_id
                    ${keys.join}
                   WHERE ${inRange} AND t.kind = 'reversal'
                   GROUP BY 1, 2) m
           GROUP BY bucket, key`;
}

/** Water, energy and sessions of the wells' finished sessions per bucket (by their end) and group. */
function waterSql(by: 'village' | 'well', from: string, to: string) {
  const village = by === 'village';
  return `SELECT to_char(date_trunc($4, s.ended_at AT TIME ZONE $3), $5) AS period,
                 ${village ? 'h.village' : 's.device_id::text'} AS "groupKey",
                 ${num('sum(s.volume_m3)')} AS "waterM3", ${num('sum(s.energy_kwh)')} AS "energyKwh",
                 count(*)::int AS sessions
            FROM billing_session s
            ${village ? 'LEFT JOIN billing_household h ON h.id = s.household_id' : ''}
           WHERE s.tenant_id = $1 AND s.state IN ('settled', 'consumed')
             AND s.ended_at >= ${from} AND s.ended_at < ${to}
           GROUP BY 1, 2`;
}

const blank = (period: string, groupKey: string, groupName: string, by: StatisticsGroup) => {
  const has = HAS[by];
  return {
    period,
    groupKey,
    groupName,
    waterM3: has.water ? 0 : null,
    energyKwh: has.water ? 0 : null,
    sessions: has.water ? 0 : null,
    chargedFen: has.charge ? 0 : null,
    rechargedFen: has.recharge ? 0 : null,
    refundedFen: has.recharge ? 0 : null,
  } satisfies StatisticsRow;
};

function accumulate(into: StatisticsRow, part: Part | StatisticsRow) {
  const plus = (a: number | null, b: number | null | undefined) =>
    a === null ? null : Math.round((a + (b ?? 0)) * 1000) / 1000;
  into.waterM3 = plus(into.waterM3, part.waterM3);
  into.energyKwh = plus(into.energyKwh, part.energyKwh);
  into.sessions = plus(into.sessions, part.sessions);
  into.chargedFen = plus(into.chargedFen, part.chargedFen);
  into.rechargedFen = plus(into.rechargedFen, part.rechargedFen);
  into.refundedFen = plus(into.refundedFen, part.refundedFen);
}

/**
 * Statistics of water, energy and money by village, well or cashier and by day, month or year:
 * water and energy from the wells' finished sessions, money from the ledger's transactions
 * (the ledger is the truth of money; sessions only say what it was for).
 */
export class StatisticsService {
  constructor(private readonly db: Database) {}

  statistics(auth: AuthContext, query: StatisticsQuery): Promise<Statistics> {
    return this.db.tenant(auth, (sql) => this.build(sql, auth.tenantId, query));
  }

  async build(sql: Sql, tenantId: string, query: StatisticsQuery): Promise<Statistics> {
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
    const by = query.groupBy;
    // Compiling these plans just in time costs more than running them (about 130 ms of a year).
    if (this.db.kind === 'postgres') await sql.query('SET LOCAL jit = off');
    // Closed days from their kept sums, the days still open from the ledger's entries.
    const closed = await sumClosedDays(sql, tenantId, timeZone, query.start, query.end);
    const money = closed
      ? (await sql.query<Part>(closedDaysSql(by), [...params.slice(0, 5), closed])).rows
      : [];
    const open = closed ? nextDay(closed) : query.start;
    if (open <= query.end) {
      const live = [tenantId, open, ...params.slice(2)];
      money.push(...(await sql.query<Part>(moneySql(by, from, to), live)).rows);
    }
    const water =
      by === 'cashier' ? [] : (await sql.query<Part>(waterSql(by, from, to), params)).rows;
    const names = await this.groupNames(sql, by, [...money, ...water]);
    const rows = new Map<string, StatisticsRow>();
    const groups = new Map<string, StatisticsRow>();
    const total = blank('', '', '', by);
    const has = HAS[by];
    for (const part of [...money, ...water]) {
      // Money that is not the grouping's (a recharge at no well, consumption at no desk).
      const counts =
        (has.charge && part.chargedFen) ||
        (has.recharge && (part.rechargedFen || part.refundedFen)) ||
        part.sessions;
      if (part.groupKey === null && !counts) continue;
      const named = names.get(part.groupKey ?? '') ?? { key: '', name: '' };
      const id = `${part.period}\u0000${named.key}`;
      let row = rows.get(id);
      if (!row) rows.set(id, (row = blank(part.period, named.key, named.name, by)));
      accumulate(row, part);
      let group = groups.get(named.key);
      if (!group) groups.set(named.key, (group = blank('', named.key, named.name, by)));
      accumulate(group, part);
      accumulate(total, part);
    }
    const byName = (a: StatisticsRow, b: StatisticsRow) =>
      a.groupName.localeCompare(b.groupName, 'zh') || a.groupKey.localeCompare(b.groupKey);
    return {
      timeZone,
      groupBy: by,
      period: query.period,
      rows: [...rows.values()].sort((a, b) => a.period.localeCompare(b.period) || byName(a, b)),
      groups: [...groups.values()].sort(byName),
      total,
    };
  }

  /**
   * Each part's key as shown: a village as it is, a well's device name, a cashier's name. A key
   * no longer found (a deleted device) keeps its id.
   */
  private async groupNames(
    sql: Sql,
    by: StatisticsGroup,
    parts: Part[],
  ): Promise<Map<string, { key: string; name: string }>> {
    const ids = [...new Set(parts.map((part) => part.groupKey).filter((id) => id !== null))];
    const names = new Map<string, { key: string; name: string }>();
    if (by === 'village') {
      for (const village of ids) names.set(village, { key: village, name: village });
      return names;
    }
    if (ids.length > 0) {
      const lookup =
        by === 'well'
          ? `SELECT id::text, device_name AS name FROM iot_device WHERE id = ANY($1::bigint[])`
          : `SELECT id::text, coalesce(nullif(nickname, ''), username) AS name
               FROM sys_user WHERE id = ANY($1::bigint[])`;
      const { rows } = await sql.query<{ id: string; name: string }>(lookup, [ids]);
      for (const row of rows) names.set(row.id, { key: row.id, name: row.name });
    }
    for (const id of ids) if (!names.has(id)) names.set(id, { key: id, name: `#${id}` });
    return names;
  }
}
