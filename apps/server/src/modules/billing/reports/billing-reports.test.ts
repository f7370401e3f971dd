import {
  BILLING_REPORT_CALLS,
  entityCalls,
  rechargeRecordEntity,
  cashReportSchema,
  ledgerChecksSchema,
  reconciliationSchema,
  revenueSchema,
  statisticsSchema,
  type ReconciliationRow,
} from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import type { Sql } from '../../../db/database';
import { createKindDevice } from '../../monitor/report/report-test-fixtures';
import { LedgerService } from '../ledger/ledger.service';
import { statDaysProcessor } from './stat-days.job';

/** Today in the demo tenant's zone (Asia/Shanghai), as the reports cut days. */
const today = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date());

/*
 * The money reports over real ledger postings (LedgerService, as the desk and the sessions post):
 * the cash report and statistics add up to the postings, revenue splits them by mode and tier,
 * the reconciliation explains each seeded difference (a card write pending, a running session's
 * hold, a lost card's late session, a controller record conflict) and shows zero where there is
 * none, and the ledger's checks pass.
 */
describe.each(BACKENDS)('billing reports on $backend', ({ backend, available }) => {
  const test = it.skipIf(!available);
  let server: TestServer;
  let token: string;
  let tenantId: string;
  let cashierId: string;
  let wellId: string;
  const ledger = new LedgerService();
  const villages = {
    one: `Recon village 1 ${backend}`,
    two: `Recon village 2 ${backend}`,
    three: `Recon village 3 ${backend}`,
    four: `Recon village 4 ${backend}`,
  };
  const households: Record<string, string> = {};
  const cards: Record<string, { id: string; no: string }> = {};
  let keys = 0;
  const key = () => `report-test-${backend}-${++keys}`;

  const inTenant = <T>(work: (sql: Sql) => Promise<T>) => server.db.tenant(tenantId, work);
  const one = async (sql: Sql, text: string, params: unknown[]) =>
    (await sql.query<{ id: string }>(text, params)).rows[0]!.id;

  const household = (sql: Sql, name: string, village: string) =>
    one(
      sql,
      `INSERT INTO billing_household (tenant_id, household_name, id_number, village, irrigated_area)
       VALUES ($1, $2, $3, $4, 10) RETURNING id::text AS id`,
      [tenantId, name, `${Date.now()}${keys++}`.slice(-18).padStart(18, '1'), village],
    );
  const card = async (sql: Sql, householdId: string, state = 'bound') => {
    const no = `${Math.floor(Math.random() * 0xffffffff)
      .toString(16)
      .padStart(8, '0')}${(keys++).toString(16).padStart(4, '0')}`.toUpperCase();
    const id = await one(
      sql,
      `INSERT INTO billing_card (tenant_id, card_no, card_type, household_id, card_state)
       VALUES ($1, $2, 'user', $3, $4) RETURNING id::text AS id`,
      [tenantId, no, householdId, state],
    );
    return { id, no };
  };
  /** The desk's card image of a ledger transaction (written, or still pending). */
  const image = async (
    sql: Sql,
    which: { id: string; no: string },
    householdId: string,
    txnId: string,
    state: 'written' | 'pending',
  ) => {
    const { availableFen } = await ledger.householdBalance(sql, tenantId, householdId);
    await sql.query(
      `INSERT INTO billing_card_write (tenant_id, card_id, card_no, household_id, reason, txn_id,
         balance_fen, sequence, state)
       VALUES ($1, $2, $3, $4, 'recharge', $5, $6,
         (SELECT count(*) + 1 FROM billing_card_write WHERE card_id = $2::bigint), $7)`,
      [tenantId, which.id, which.no, householdId, txnId, availableFen, state],
    );
  };
  const recharge = (
    sql: Sql,
    householdId: string,
    amountFen: number,
    method: 'cash' | 'online' = 'cash',
  ) =>
    ledger.recharge(sql, {
      tenantId,
      idempotencyKey: key(),
      householdId,
      amountFen,
      method,
      cashierId,
      externalRef: method === 'cash' ? null : `PAY-${keys}`,
    });
  /** A session at the well: its row, hold and settle (or a consumption without hold). */
  const session = async (
    sql: Sql,
    which: { id: string; no: string },
    householdId: string,
    options: {
      holdFen?: number;
      chargeFen?: number;
      controllerFen?: number;
      open?: boolean;
      lostCard?: boolean;
      mode?: string;
      tierParts?: unknown;
      volumeM3?: number;
      energyKwh?: number;
    },
  ) => {
    const recordNo = ++keys;
    const sessionId = await one(
      sql,
      `INSERT INTO billing_session (tenant_id, device_id, device_no, card_id, card_no, household_id,
         state, record_no, started_at, ended_at, volume_m3, energy_kwh, billing_mode,
         amount_fen, controller_amount_fen, tier_parts, late, lost_card)
       VALUES ($1, $2, 'WELL-1', $3, $4, $5, $6, $7, now() - interval '1 hour',
         CASE WHEN $6 = 'open' THEN NULL ELSE now() END, $8, $9, $10, $11, $12, $13::jsonb,
         $14, $14)
       RETURNING id::text AS id`,
      [
        tenantId,
        wellId,
        which.id,
        which.no,
        householdId,
        options.open ? 'open' : options.holdFen ? 'settled' : 'consumed',
        recordNo,
        options.open ? null : (options.volumeM3 ?? 0),
        options.open ? null : (options.energyKwh ?? 0),
        options.mode ?? 'm3',
        options.chargeFen ?? null,
        options.open ? null : (options.controllerFen ?? options.chargeFen ?? null),
        options.tierParts ? JSON.stringify(options.tierParts) : null,
        options.lostCard ?? false,
      ],
    );
    const refs = { cardId: which.id, deviceId: wellId, sessionId };
    if (options.holdFen) {
      const hold = await ledger.hold(sql, {
        tenantId,
        idempotencyKey: key(),
        householdId,
        amountFen: options.holdFen,
        ...refs,
      });
      await sql.query(`UPDATE billing_session SET hold_txn_id = $1 WHERE id = $2`, [
        hold.txnId,
        sessionId,
      ]);
      if (options.open) return sessionId;
      const settle = await ledger.settle(sql, {
        tenantId,
        idempotencyKey: key(),
        holdTxnId: hold.txnId,
        amountFen: options.chargeFen!,
        ...refs,
      });
      await sql.query(`UPDATE billing_session SET settle_txn_id = $1 WHERE id = $2`, [
        settle.txnId,
        sessionId,
      ]);
    } else {
      const consumed = await ledger.consume(sql, {
        tenantId,
        idempotencyKey: key(),
        householdId,
        amountFen: options.chargeFen!,
        ...refs,
      });
      await sql.query(`UPDATE billing_session SET settle_txn_id = $1 WHERE id = $2`, [
        consumed.txnId,
        sessionId,
      ]);
    }
    return sessionId;
  };

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    token = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
    ({ tenantId, cashierId } = await server.db.system(
      async (sql) =>
        (
          await sql.query<{ tenantId: string; cashierId: string }>(
            `SELECT t.id::text AS "tenantId", u.id::text AS "cashierId"
               FROM tenant t JOIN sys_user u ON u.tenant_id = t.id
              WHERE t.tenant_code = 'demo' AND u.username = 'admin'`,
          )
        ).rows[0]!,
    ));
    wellId = (await createKindDevice(server.db, 'demo', 'card_controller')).deviceId;
    await inTenant(async (sql) => {
      // Zero: a recharge written on the card, a session the controller charged alike, a refund.
      households.zero = await household(sql, 'Zero household', villages.one);
      cards.zero = await card(sql, households.zero);
      const first = await recharge(sql, households.zero, 10_000);
      await image(sql, cards.zero, households.zero, first.txnId, 'written');
      await session(sql, cards.zero, households.zero, {
        holdFen: 3000,
        chargeFen: 1200,
        volumeM3: 11.5,
        energyKwh: 4,
        mode: 'm3',
        tierParts: [
          // As pricing writes them: exact amounts, the charge their sum rounded (1199.6 → 1200).
          { tier: 0, volumeM3: 10, exactFen: 999.8 },
          { tier: 1, volumeM3: 1.5, exactFen: 199.8 },
        ],
      });
      const refund = await ledger.refund(sql, {
        tenantId,
        idempotencyKey: key(),
        householdId: households.zero,
        amountFen: 800,
        cashierId,
      });
      await image(sql, cards.zero, households.zero, refund.txnId, 'written');

      // A recharge online whose card write is pending, and a session running.
      households.pending = await household(sql, 'Pending household', villages.one);
      cards.pending = await card(sql, households.pending);
      const written = await recharge(sql, households.pending, 5000);
      await image(sql, cards.pending, households.pending, written.txnId, 'written');
      const online = await recharge(sql, households.pending, 2000, 'online');
      await image(sql, cards.pending, households.pending, online.txnId, 'pending');
      await session(sql, cards.pending, households.pending, { holdFen: 1000, open: true });

      // A lost card's session posted late, and a controller record refused as a conflict.
      households.lost = await household(sql, 'Lost card household', villages.two);
      const lostCard = await card(sql, households.lost, 'lost');
      cards.lost = await card(sql, households.lost);
      const recharged = await recharge(sql, households.lost, 8000);
      await image(sql, cards.lost, households.lost, recharged.txnId, 'written');
      await session(sql, lostCard, households.lost, {
        chargeFen: 500,
        lostCard: true,
        mode: 'kwh',
        volumeM3: 5,
        energyKwh: 2.5,
      });
      await sql.query(
        `INSERT INTO billing_controller_record (tenant_id, device_id, device_no, record_no, card_no,
           amount_fen, status, message, payload)
         VALUES ($1, $2, 'WELL-1', 999, $3, 300, 'conflict', 'same key, other amount', '{}')`,
        [tenantId, wellId, cards.lost.no],
      );

      // The controller charged 10.00 where the ledger posted 9.00, and a record refused outright.
      households.differs = await household(sql, 'Differing household', villages.four);
      cards.differs = await card(sql, households.differs);
      const topUp = await recharge(sql, households.differs, 5000);
      await image(sql, cards.differs, households.differs, topUp.txnId, 'written');
      await session(sql, cards.differs, households.differs, {
        holdFen: 2000,
        chargeFen: 900,
        controllerFen: 1000,
        mode: 'time',
      });
      await sql.query(
        `INSERT INTO billing_controller_record (tenant_id, device_id, device_no, record_no, card_no,
           amount_fen, status, message, payload)
         VALUES ($1, $2, 'WELL-1', 998, $3, 50, 'refused', 'no such session', '{}')`,
        [tenantId, wellId, cards.differs.no],
      );

      // A write retried after a second recharge: the desk refreshed its image to the balance of
      // the retry (both recharges), though it is the first recharge's write.
      households.retried = await household(sql, 'Retried household', villages.four);
      cards.retried = await card(sql, households.retried);
      const earlier = await recharge(sql, households.retried, 3000);
      await recharge(sql, households.retried, 1000);
      await image(sql, cards.retried, households.retried, earlier.txnId, 'written');

      // A recharge reversed before it was written: two entries, no difference.
      households.reversed = await household(sql, 'Reversed household', villages.two);
      cards.reversed = await card(sql, households.reversed);
      const mistaken = await recharge(sql, households.reversed, 1000);
      await ledger.reverse(sql, {
        tenantId,
        idempotencyKey: key(),
        txnId: mistaken.txnId,
        cashierId,
      });
    });
    // A recharge posted five days ago, as a bulk import writes the ledger (the service posts now):
    // its day is closed, so statistics keep its sums (billing_stat_day).
    households.past = await inTenant((sql) => household(sql, 'Past household', villages.three));
    await server.db.system((sql) =>
      sql.query(
        `WITH account AS (INSERT INTO billing_account (tenant_id, kind, owner_id)
                          VALUES ($1, 'household', $2) RETURNING id),
              drawer AS (SELECT id FROM billing_account
                          WHERE tenant_id = $1 AND kind = 'cash' AND owner_id = $3),
              txn AS (INSERT INTO billing_txn (tenant_id, idempotency_key, request_hash, kind,
                        amount_fen, household_id, cashier_id, method, created_at)
                      VALUES ($1, $4, 'import', 'recharge', 4200, $2, $3, 'cash',
                        now() - interval '5 days') RETURNING id)
         INSERT INTO billing_posting (tenant_id, txn_id, account_id, account_kind, debit_fen,
           credit_fen, account_seq, balance_after_fen, created_at)
         SELECT $1, txn.id, drawer.id, 'cash', 4200, 0, NULL, NULL, now() - interval '5 days'
           FROM txn, drawer
         UNION ALL
         SELECT $1, txn.id, account.id, 'household', 0, 4200, 1, 4200, now() - interval '5 days'
           FROM txn, account`,
        [tenantId, households.past, cashierId, key()],
      ),
    );
  }, 120_000);
  afterAll(async () => server?.close());

  const get = async <T>(
    url: string,
    query: Record<string, string>,
    parse: { parse(v: unknown): T },
  ) => {
    const response = await call(server, 'GET', `${url}?${new URLSearchParams(query).toString()}`, {
      token,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return parse.parse((response.body as { data: unknown }).data);
  };

  test('the reconciliation explains every difference and shows zero where there is none', async () => {
    const result = await get(BILLING_REPORT_CALLS.reconciliation, {}, reconciliationSchema);
    const row = (name: string): ReconciliationRow =>
      result.rows.find((one) => one.householdId === households[name])!;
    const reasons = (name: string) =>
      Object.fromEntries(row(name).items.map((item) => [item.reason, item.amountFen]));

    expect(row('zero')).toMatchObject({
      cardImageFen: 8000,
      controllerChargedFen: 0,
      cardBalanceFen: 8000,
      ledgerAvailableFen: 8000,
      differenceFen: 0,
      unexplainedFen: 0,
      items: [],
    });
    expect(row('pending')).toMatchObject({
      cardBalanceFen: 5000,
      ledgerAvailableFen: 6000,
      ledgerHeldFen: 1000,
      differenceFen: -1000,
      unexplainedFen: 0,
    });
    expect(reasons('pending')).toEqual({ pendingCardWrite: -2000, runningSessionHold: 1000 });
    expect(row('lost')).toMatchObject({
      cardImageFen: 8000,
      controllerChargedFen: 300,
      cardBalanceFen: 7700,
      ledgerAvailableFen: 7500,
      ledgerChargedFen: 500,
      differenceFen: 200,
      unexplainedFen: 0,
    });
    expect(reasons('lost')).toEqual({ lateLostCardSession: 500, controllerConflict: -300 });
    expect(row('differs')).toMatchObject({
      cardImageFen: 5000,
      controllerChargedFen: 1050,
      cardBalanceFen: 3950,
      ledgerChargedFen: 900,
      ledgerAvailableFen: 4100,
      differenceFen: -150,
      unexplainedFen: 0,
    });
    expect(reasons('differs')).toEqual({ controllerAmountDiffers: -100, controllerRefused: -50 });
    expect(row('retried')).toMatchObject({
      cardImageFen: 4000,
      ledgerAvailableFen: 4000,
      differenceFen: 0,
      unexplainedFen: 0,
      items: [],
    });
    expect(row('reversed')).toMatchObject({ differenceFen: 0, unexplainedFen: 0 });
    expect(reasons('reversed')).toEqual({ pendingCardWrite: -1000, ledgerCorrection: 1000 });

    // One village, only differences: what a manager filters to.
    const filtered = await get(
      BILLING_REPORT_CALLS.reconciliation,
      { village: villages.one, onlyDifferences: 'true' },
      reconciliationSchema,
    );
    expect(filtered.rows.map((one) => one.householdId)).toEqual([households.pending]);
    expect(filtered).toMatchObject({ households: 2, withDifference: 1, unexplained: 0 });
  });

  test("statistics add up to the ledger's postings", async () => {
    const day = today();
    const statistics = await get(
      BILLING_REPORT_CALLS.statistics,
      { start: day, end: day, groupBy: 'village', period: 'month' },
      statisticsSchema,
    );
    const village = (name: string) => statistics.groups.find((group) => group.groupKey === name)!;
    expect(village(villages.one)).toMatchObject({
      chargedFen: 1200,
      rechargedFen: 17_000,
      refundedFen: 800,
      waterM3: 11.5,
      energyKwh: 4,
      sessions: 1,
    });
    expect(village(villages.two)).toMatchObject({
      chargedFen: 500,
      rechargedFen: 8000,
      refundedFen: 0,
      waterM3: 5,
      sessions: 1,
    });
    // The whole tenant's day against the postings themselves.
    const postings = await inTenant(
      async (sql) =>
        (
          await sql.query<{ revenue: number; recharged: number }>(
            `SELECT coalesce(sum(p.credit_fen - p.debit_fen) FILTER (WHERE p.account_kind = 'revenue'), 0)::float8 AS revenue,
                    coalesce(sum(p.debit_fen - p.credit_fen) FILTER (WHERE p.account_kind IN ('cash', 'online')), 0)::float8 AS recharged
               FROM billing_posting p JOIN billing_txn t ON t.id = p.txn_id
              WHERE t.created_at >= (($1::date)::timestamp AT TIME ZONE 'Asia/Shanghai')`,
            [day],
          )
        ).rows[0]!,
    );
    expect(statistics.total.chargedFen).toBe(postings.revenue);
    // Money into cash and online accounts less money out of them: recharges less refunds.
    expect(statistics.total.rechargedFen! - statistics.total.refundedFen!).toBe(postings.recharged);

    const byWell = await get(
      BILLING_REPORT_CALLS.statistics,
      { start: day, end: day, groupBy: 'well', period: 'day' },
      statisticsSchema,
    );
    expect(byWell.groups.find((group) => group.groupKey === wellId)).toMatchObject({
      chargedFen: 2600,
      waterM3: 16.5,
      energyKwh: 6.5,
      sessions: 3,
      rechargedFen: null,
    });
    const byCashier = await get(
      BILLING_REPORT_CALLS.statistics,
      { start: day, end: day, groupBy: 'cashier', period: 'year' },
      statisticsSchema,
    );
    expect(byCashier.groups.find((group) => group.groupKey === cashierId)).toMatchObject({
      rechargedFen: 34_000,
      refundedFen: 800,
      waterM3: null,
    });
  });

  test('the hourly job sums the closed days from the first entry on', async () => {
    await statDaysProcessor({ db: server.db })({} as never);
    const kept = await server.db.system(
      async (sql) =>
        (
          await sql.query<{ days: number; sums: number }>(
            `SELECT (SELECT count(*)::int FROM billing_stat_day_done WHERE tenant_id = $1) AS days,
                    (SELECT coalesce(sum(recharged_fen), 0)::int FROM billing_stat_day
                      WHERE tenant_id = $1 AND village = $2) AS sums`,
            [tenantId, villages.three],
          )
        ).rows[0]!,
    );
    // From five days ago (the imported recharge) to two days ago.
    expect(kept).toEqual({ days: 4, sums: 4200 });
  });

  test('closed days are summed once and read from their sums after', async () => {
    const day = today();
    const fiveDaysAgo = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(
      new Date(Date.now() - 5 * 86_400_000),
    );
    const start = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(
      new Date(Date.now() - 10 * 86_400_000),
    );
    const query = { start, end: day, groupBy: 'village', period: 'day' };
    const first = await get(BILLING_REPORT_CALLS.statistics, query, statisticsSchema);
    const again = await get(BILLING_REPORT_CALLS.statistics, query, statisticsSchema);
    expect(again).toEqual(first);
    const past = first.rows.filter((row) => row.groupKey === villages.three);
    expect(past).toEqual([
      expect.objectContaining({ period: fiveDaysAgo, rechargedFen: 4200, chargedFen: 0 }),
    ]);
    // Today's entries still come from the ledger beside the kept days.
    expect(first.groups.find((group) => group.groupKey === villages.one)).toMatchObject({
      rechargedFen: 17_000,
    });
    const kept = await server.db.system(
      async (sql) =>
        (
          await sql.query<{ days: number; sums: number }>(
            `SELECT (SELECT count(*)::int FROM billing_stat_day_done WHERE tenant_id = $1) AS days,
                    (SELECT coalesce(sum(recharged_fen), 0)::int FROM billing_stat_day
                      WHERE tenant_id = $1 AND village = $2) AS sums`,
            [tenantId, villages.three],
          )
        ).rows[0]!,
    );
    expect(kept.days).toBeGreaterThanOrEqual(9);
    expect(kept.sums).toBe(4200);
  });

  test('the daily cash report counts the drawer', async () => {
    const report = await get(
      BILLING_REPORT_CALLS.cashReport,
      { day: today(), cashierId },
      cashReportSchema,
    );
    expect(report.rows).toHaveLength(1);
    expect(report.rows[0]).toMatchObject({
      cashierId,
      cashInFen: 33_000,
      onlineFen: 2000,
      cashRefundedFen: 800,
      reversedFen: -1000,
      netCashFen: 31_200,
      netFen: 33_200,
      count: 10,
    });
  });

  test('revenue splits the posted money by billing mode and tier', async () => {
    const day = today();
    const revenue = await get(
      BILLING_REPORT_CALLS.revenue,
      { start: day, end: day, period: 'day' },
      revenueSchema,
    );
    const mine = revenue.rows.filter((row) => row.period === day);
    expect(mine).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ billingMode: 'm3', tier: 0, amountFen: 1000, waterM3: 10 }),
        expect.objectContaining({ billingMode: 'm3', tier: 1, amountFen: 200, waterM3: 1.5 }),
        expect.objectContaining({ billingMode: 'kwh', tier: 0, amountFen: 500, waterM3: 5 }),
      ]),
    );
    const period = revenue.periods.find((one) => one.period === day)!;
    expect(period.netFen).toBeGreaterThanOrEqual(1700);
    expect(period.unallocatedFen).toBe(0);
  });

  test("the ledger's checks pass", async () => {
    const checks = await get(BILLING_REPORT_CALLS.ledgerChecks, {}, ledgerChecksSchema);
    for (const check of checks.checks) expect(check, check.check).toMatchObject({ passed: true });
    const balanced = checks.checks.find((check) => check.check === 'ledgerBalanced')!;
    expect(balanced.debitsFen).toBe(balanced.creditsFen);
    expect(checks.transactions).toBeGreaterThanOrEqual(16);
  });

  test('the recharge records list recharges and their reversals, by village', async () => {
    const list = async (query: Record<string, string>) => {
      const response = await call(
        server,
        'GET',
        `${entityCalls(rechargeRecordEntity).query}?${new URLSearchParams({ rechargeOf: 'recharge', pageSize: '50', ...query }).toString()}`,
        { token },
      );
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return (response.body as { data: { list: Array<Record<string, unknown>>; total: number } })
        .data;
    };
    const two = await list({ village: villages.two });
    expect(two.total).toBe(3);
    expect(two.list.map((row) => [row.kind, row.amountYuan, row.method])).toEqual([
      ['reversal', '-10.00', 'cash'],
      ['recharge', '10.00', 'cash'],
      ['recharge', '80.00', 'cash'],
    ]);
    const online = await list({ village: villages.one, method: 'online' });
    expect(online.list.map((row) => row.amountYuan)).toEqual(['20.00']);
    // Refunds, holds and settlements are not recharges.
    expect((await list({ village: villages.one })).total).toBe(3);
  });

  test('each report downloads as xlsx and pdf', async () => {
    const day = today();
    const files: Array<[string, Record<string, string>]> = [
      [BILLING_REPORT_CALLS.exportCashReport, { day }],
      [
        BILLING_REPORT_CALLS.exportStatistics,
        { start: day, end: day, groupBy: 'village', period: 'day' },
      ],
      [BILLING_REPORT_CALLS.exportRevenue, { start: day, end: day, period: 'month' }],
      [BILLING_REPORT_CALLS.exportReconciliation, { onlyDifferences: 'true' }],
    ];
    for (const [url, query] of files) {
      for (const format of ['xlsx', 'pdf']) {
        const response = await fetch(
          `${server.url}${url}?${new URLSearchParams({ ...query, format }).toString()}`,
          { method: 'POST', headers: { authorization: `Bearer ${token}` } },
        );
        expect(response.status, url).toBe(200);
        const body = Buffer.from(await response.arrayBuffer());
        expect(body.subarray(0, 4).toString('latin1')).toBe(
          format === 'pdf' ? '%PDF' : 'PK\u0003\u0004',
        );
      }
    }
  });

  test('bad input is a 400 naming the field', async () => {
    const response = await call(
      server,
      'GET',
      `${BILLING_REPORT_CALLS.statistics}?start=2026-02-30&end=2026-03-01&groupBy=village&period=day`,
      { token },
    );
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body)).toMatch(/Start/);
    const backwards = await call(
      server,
      'GET',
      `${BILLING_REPORT_CALLS.revenue}?start=2026-03-02&end=2026-03-01&period=day`,
      { token },
    );
    expect(backwards.status).toBe(400);
  });
});
