import {
  ROLE_ADMIN,
  type CashReport,
  type CashReportEntry,
  type CashReportQuery,
  type CashReportRow,
} from '@shuili/contract';
import type { Database, Sql } from '../../../db/database';
import { AppError } from '../../../http/app-error';
import type { AuthContext } from '../../../http/request-context';
import { tenantTimeZone } from '../../iot/telemetry/telemetry-settings';
import { rangeBounds } from './report-range';
import { refMissing } from '../ledger/ledger-errors';

interface EntryRow {
  txnId: string;
  at: Date;
  kind: string;
  reversedKind: string | null;
  method: string | null;
  cashierId: string | null;
  cashierName: string | null;
  householdName: string | null;
  village: string | null;
  externalRef: string | null;
  amountFen: number;
}

const empty = (cashierId: string, cashierName: string): CashReportRow => ({
  cashierId,
  cashierName,
  cashInFen: 0,
  cashRefundedFen: 0,
  onlineFen: 0,
  reversedFen: 0,
  netCashFen: 0,
  netFen: 0,
  count: 0,
});

/** Adds one desk transaction to a cashier's day (reversals by the kind they reverse). */
function add(row: CashReportRow, entry: EntryRow): number {
  const cash = entry.method === 'cash';
  let signed = 0;
  if (entry.kind === 'recharge') {
    signed = entry.amountFen;
    if (cash) row.cashInFen += signed;
    else row.onlineFen += signed;
  } else if (entry.kind === 'refund') {
    signed = -entry.amountFen;
    row.cashRefundedFen += entry.amountFen;
  } else {
    // A recharge taken back is money out of the desk; a refund undone is money back in.
    signed = entry.reversedKind === 'recharge' ? -entry.amountFen : entry.amountFen;
    row.reversedFen += signed;
  }
  // Refunds are paid in cash (the ledger credits the cashier's drawer), whatever the recharge.
  if (
    cash ||
    entry.kind === 'refund' ||
    (entry.kind === 'reversal' && entry.reversedKind === 'refund')
  )
    row.netCashFen += signed;
  row.netFen += signed;
  row.count += 1;
  return signed;
}

/**
 * The daily cash report: a day's desk transactions (recharges, refunds and their reversals) per
 * cashier, so a cashier's drawer can be counted against it. A reversal counts for the cashier who
 * made it (the ledger moves their drawer), else for the original's.
 */
export class CashReportService {
  constructor(private readonly db: Database) {}

  /**
   * A cashier counts their own drawer: only an administrator (ROLE_ADMIN, the active role) reads
   * every cashier's or names another one; anyone else gets their own day, and naming another
   * cashier is a 403 naming cashierId.
   */
  report(auth: AuthContext, query: CashReportQuery): Promise<CashReport> {
    if (auth.activeRole !== ROLE_ADMIN) {
      if (query.cashierId !== undefined && query.cashierId !== auth.userId)
        throw new AppError(403, 'auth.forbidden', {
          fields: [{ field: 'cashierId', key: 'auth.forbidden' }],
        });
      query = { ...query, cashierId: auth.userId };
    }
    return this.db.tenant(auth, async (sql) => this.build(sql, auth.tenantId, query));
  }

  async build(sql: Sql, tenantId: string, query: CashReportQuery): Promise<CashReport> {
    const timeZone = await tenantTimeZone(sql);
    const day =
      query.day ??
      (
        await sql.query<{ day: string }>(`SELECT (now() AT TIME ZONE $1)::date::text AS day`, [
          timeZone,
        ])
      ).rows[0]!.day;
    const { from, to } = rangeBounds('$2', '$2', '$3');
    const params: unknown[] = [tenantId, day, timeZone];
    let cashier = '';
    if (query.cashierId) {
      // A cashier of another tenant (or none) is refused, not answered as an empty drawer.
      const known = await sql.query(`SELECT 1 FROM sys_user WHERE tenant_id = $1 AND id = $2`, [
        tenantId,
        query.cashierId,
      ]);
      if (known.rows.length === 0) throw refMissing('cashierId');
      params.push(query.cashierId);
      cashier = `AND coalesce(t.cashier_id, o.cashier_id) = $4`;
    }
    const { rows } = await sql.query<EntryRow>(
      `SELECT t.id::text AS "txnId", t.created_at AS at, t.kind, o.kind AS "reversedKind",
              coalesce(t.method, o.method) AS method,
              coalesce(t.cashier_id, o.cashier_id)::text AS "cashierId",
              coalesce(nullif(u.nickname, ''), u.username) AS "cashierName",
              h.household_name AS "householdName", h.village,
              coalesce(t.external_ref, o.external_ref) AS "externalRef",
              t.amount_fen::float8 AS "amountFen"
         FROM billing_txn t
         LEFT JOIN billing_txn o ON o.tenant_id = t.tenant_id AND o.id = t.reverses_txn_id
         LEFT JOIN sys_user u ON u.id = coalesce(t.cashier_id, o.cashier_id)
         LEFT JOIN billing_household h ON h.id = coalesce(t.household_id, o.household_id)
        WHERE t.tenant_id = $1 AND t.created_at >= ${from} AND t.created_at < ${to}
          AND t.kind IN ('recharge', 'refund', 'reversal')
          AND (t.kind <> 'reversal' OR o.kind IN ('recharge', 'refund'))
          ${cashier}
        ORDER BY t.created_at, t.id`,
      params,
    );
    const byCashier = new Map<string, CashReportRow>();
    const total = empty('', '');
    const entries: CashReportEntry[] = [];
    for (const entry of rows) {
      const id = entry.cashierId ?? '';
      const name = entry.cashierName ?? '';
      let row = byCashier.get(id);
      if (!row) byCashier.set(id, (row = empty(id, name)));
      const signed = add(row, entry);
      add(total, entry);
      entries.push({
        txnId: entry.txnId,
        at: entry.at.toISOString(),
        kind: entry.kind === 'reversal' ? `reversal:${entry.reversedKind}` : entry.kind,
        method: entry.method,
        cashierId: id,
        cashierName: name,
        householdName: entry.householdName,
        village: entry.village,
        externalRef: entry.externalRef,
        amountFen: signed,
      });
    }
    const list = [...byCashier.values()].sort((a, b) => a.cashierName.localeCompare(b.cashierName));
    return { day, timeZone, rows: list, total, entries };
  }
}
