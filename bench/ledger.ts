import crypto from 'node:crypto';
import pg from 'pg';
import type { Database } from '../apps/server/src/db/database';
import { LedgerService } from '../apps/server/src/modules/billing/ledger/ledger.service';
import { auditLedger } from '../apps/server/src/modules/billing/ledger/ledger-test-kit';
import { StatisticsService } from '../apps/server/src/modules/billing/reports/statistics.service';
import { openTarget, withFreshTarget, type Target } from '@shuili/test-support/database-target';
import { TEST_DATABASE_URL, type Backend } from '@shuili/test-support/test-server';
import {
  LEDGER_YEAR,
  prepareLedger,
  type LedgerPlan,
  type PreparedLedger,
} from './lib/ledger-data';
import { watchLoad } from './lib/machine-load';
import { writeResult } from './lib/results';
import { closedLoop, latencySummary, median, round } from './lib/stats';

/** The goals (issue 20 "Performance"). */
const GOALS = { balanceMs: 5, statisticsMs: 500, rechargesPerSecond: 200 };

interface Plan {
  data: LedgerPlan;
  balanceRuns: number;
  statisticsRuns: number;
  /** Concurrent cashiers, and seconds of each sustained run. */
  concurrency: number;
  seconds: number;
}

const elapsed = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
  const t0 = performance.now();
  const result = await work();
  return [result, performance.now() - t0];
};

const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;

/**
 * A household's balance: LedgerService.householdBalance in a tenant transaction (the call's whole
 * database work: BEGIN, role and tenant, the balance, COMMIT), beside the sum of every posting of
 * the account that a ledger without balance chains would have to add up.
 */
async function measureBalance(db: Database, data: PreparedLedger, plan: Plan) {
  const ledger = new LedgerService();
  const shuili: number[] = [];
  const statementOnly: number[] = [];
  const peer: number[] = [];
  for (let run = -20; run < plan.balanceRuns; run += 1) {
    const householdId = pick(data.householdIds);
    const [balance, ms] = await elapsed(() =>
      db.tenant(data.tenantId, (sql) => ledger.householdBalance(sql, data.tenantId, householdId)),
    );
    const [, statementMs] = await db.tenant(data.tenantId, (sql) =>
      elapsed(() => ledger.householdBalance(sql, data.tenantId, householdId)),
    );
    const [summed, peerMs] = await db.tenant(data.tenantId, (sql) =>
      elapsed(() =>
        sql.query<{ balance: string }>(
          `SELECT (sum(p.credit_fen) - sum(p.debit_fen))::text AS balance
             FROM billing_account a JOIN billing_posting p ON p.account_id = a.id
            WHERE a.tenant_id = $1 AND a.kind = 'household' AND a.owner_id = $2`,
          [data.tenantId, householdId],
        ),
      ),
    );
    if (String(balance.availableFen) !== summed.rows[0]!.balance)
      throw new Error(
        `balance of ${householdId}: chain ${balance.availableFen}, sum ${summed.rows[0]!.balance}`,
      );
    if (run < 0) continue;
    shuili.push(ms);
    statementOnly.push(statementMs);
    peer.push(peerMs);
  }
  const summary = latencySummary(shuili);
  return {
    describe: "a random household's available and held balance (its accounts' last postings)",
    shuili: summary,
    statementOnly: latencySummary(statementOnly),
    peer: latencySummary(peer),
    peerDescribe: "the sum of every posting of the household's account",
    shuiliOverPeerP50: round(summary.p50Ms / median(peer)),
    goal: { ms: GOALS.balanceMs, met: summary.p50Ms < GOALS.balanceMs },
  };
}

/**
 * A year's statistics by village: the reports' StatisticsService (money from the ledger by month
 * and village: closed days summed once into billing_stat_day, the first call's work, open days
 * from the ledger; water from the sessions), beside the plain GROUP BY village of the year's
 * transactions joined to their households.
 */
async function measureStatistics(db: Database, data: PreparedLedger, plan: Plan) {
  const service = new StatisticsService(db);
  const shuili: number[] = [];
  const oneStatement: number[] = [];
  const peer: number[] = [];
  let groups = 0;
  let charged = 0;
  let firstMs = 0;
  for (let run = -1; run < plan.statisticsRuns; run += 1) {
    const [statistics, ms] = await elapsed(() =>
      db.tenant(data.tenantId, (sql) =>
        service.build(sql, data.tenantId, { ...LEDGER_YEAR, groupBy: 'village', period: 'month' }),
      ),
    );
    const [plain, peerMs] = await elapsed(() =>
      db.tenant(data.tenantId, (sql) =>
        sql.query<{ charged: string }>(
          `SELECT h.village, sum(t.amount_fen) FILTER (WHERE t.kind = 'consumption')::text AS charged,
                  sum(t.amount_fen) FILTER (WHERE t.kind = 'recharge')::text AS recharged
             FROM billing_txn t JOIN billing_household h ON h.id = t.household_id
            WHERE t.tenant_id = $1 AND t.created_at >= '2025-01-01 00:00:00+08'
              AND t.created_at < '2026-01-01 00:00:00+08'
            GROUP BY h.village`,
          [data.tenantId],
        ),
      ),
    );
    // The same statistics grouped by village inside the database: one row per village and month
    // leaves it instead of one per household and month.
    const [byVillage, oneMs] = await elapsed(() =>
      db.tenant(data.tenantId, (sql) =>
        sql.query<{ charged: string }>(
          `SELECT to_char(date_trunc('month', t.created_at AT TIME ZONE 'Asia/Shanghai'), 'YYYY-MM') AS period,
                  h.village,
                  sum(t.amount_fen) FILTER (WHERE t.kind IN ('settle', 'consumption'))::text AS charged,
                  sum(t.amount_fen) FILTER (WHERE t.kind = 'recharge')::text AS recharged,
                  sum(t.amount_fen) FILTER (WHERE t.kind = 'refund')::text AS refunded
             FROM billing_txn t JOIN billing_household h ON h.id = t.household_id
            WHERE t.tenant_id = $1 AND t.created_at >= '2025-01-01 00:00:00+08'
              AND t.created_at < '2026-01-01 00:00:00+08'
              AND t.kind IN ('settle', 'consumption', 'recharge', 'refund')
            GROUP BY 1, 2`,
          [data.tenantId],
        ),
      ),
    );
    const peerCharged = plain.rows.reduce((sum, row) => sum + Number(row.charged ?? 0), 0);
    const oneCharged = byVillage.rows.reduce((sum, row) => sum + Number(row.charged ?? 0), 0);
    if (oneCharged !== peerCharged)
      throw new Error(`statistics: one statement charged ${oneCharged}, plain ${peerCharged}`);
    if (statistics.total.chargedFen !== peerCharged)
      throw new Error(`statistics: charged ${statistics.total.chargedFen}, plain ${peerCharged}`);
    // The first call sums the closed days once (the service keeps them); later calls read them.
    if (run < 0) {
      firstMs = ms;
      continue;
    }
    shuili.push(ms);
    oneStatement.push(oneMs);
    peer.push(peerMs);
    groups = statistics.groups.length;
    charged = peerCharged;
  }
  const p50 = median(shuili);
  return {
    describe: 'statistics of a year by village and month (StatisticsService.build)',
    villages: groups,
    chargedFen: charged,
    firstCallMs: round(firstMs),
    shuili: latencySummary(shuili),
    oneStatement: latencySummary(oneStatement),
    oneStatementDescribe:
      'the same money statistics (village × month) grouped by village in one statement',
    peer: latencySummary(peer),
    peerDescribe:
      "the plain GROUP BY village of the year's transactions joined to their households",
    shuiliOverPeerP50: round(p50 / median(peer)),
    goal: { ms: GOALS.statisticsMs, met: p50 < GOALS.statisticsMs },
  };
}

/**
 * Sustained cash recharges from `concurrency` cashiers for `seconds`, each its own tenant
 * transaction through LedgerService.recharge (key check, household check, lock, balance, txn and
 * postings); then checked: every accepted recharge is in the ledger exactly once with its two
 * postings, and each household's balance rose by exactly what it was accepted. The peer inserts
 * the same entries (a transaction row and its two postings, one statement in one transaction) into
 * tables of the same columns without constraints, triggers, locks or checks.
 */
async function measureRecharges(db: Database, data: PreparedLedger, plan: Plan) {
  const ledger = new LedgerService();
  const run = crypto.randomBytes(4).toString('hex');
  const before = new Map<string, number>();
  await db.tenant(data.tenantId, async (sql) => {
    for (const id of data.householdIds.slice(0, 200))
      before.set(id, (await ledger.householdBalance(sql, data.tenantId, id)).availableFen);
  });
  const households = [...before.keys()];
  const accepted = new Map<string, number>();
  let n = 0;
  const shuili = await closedLoop(plan.concurrency, plan.seconds, async () => {
    const householdId = pick(households);
    const amountFen = 100 + (n % 50) * 10;
    const idempotencyKey = `load-${run}-${n++}`;
    await db.tenant(data.tenantId, (sql) =>
      ledger.recharge(sql, {
        tenantId: data.tenantId,
        idempotencyKey,
        householdId,
        amountFen,
        method: 'cash',
        cashierId: data.cashierId,
        createdBy: data.cashierId,
      }),
    );
    accepted.set(householdId, (accepted.get(householdId) ?? 0) + amountFen);
    return true;
  });
  // Zero lost or doubled.
  const check = await db.system(async (sql) => {
    const { rows } = await sql.query<{ txns: string; postings: string; keys: string }>(
      `SELECT count(DISTINCT t.id)::text AS txns, count(p.id)::text AS postings,
              count(DISTINCT t.idempotency_key)::text AS keys
         FROM billing_txn t JOIN billing_posting p ON p.txn_id = t.id
        WHERE t.tenant_id = $1 AND t.idempotency_key LIKE $2`,
      [data.tenantId, `load-${run}-%`],
    );
    return rows[0]!;
  });
  let wrongBalances = 0;
  await db.tenant(data.tenantId, async (sql) => {
    for (const id of households) {
      const now = (await ledger.householdBalance(sql, data.tenantId, id)).availableFen;
      if (now !== before.get(id)! + (accepted.get(id) ?? 0)) wrongBalances += 1;
    }
  });
  const completed = shuili.completed - shuili.failures;
  const lost = completed - Number(check.txns);
  const doubled = Number(check.postings) - 2 * Number(check.txns);

  await db.system((sql) =>
    sql.exec(`CREATE TABLE IF NOT EXISTS bench_bare_txn (LIKE billing_txn);
              CREATE TABLE IF NOT EXISTS bench_bare_posting (LIKE billing_posting)`),
  );
  let m = 0;
  const peer = await closedLoop(plan.concurrency, plan.seconds, async () => {
    const householdId = pick(households);
    const amountFen = 100 + (m % 50) * 10;
    const key = `bare-${run}-${m++}`;
    await db.system((sql) =>
      sql.query(
        `WITH t AS (
           INSERT INTO bench_bare_txn (id, tenant_id, idempotency_key, request_hash, kind, amount_fen,
             household_id, cashier_id, method, created_at, updated_at, created_by, updated_by)
           VALUES ((random() * 1e15)::bigint, $1, $2, 'bare', 'recharge', $3, $4, $5, 'cash', now(),
                   now(), $5, $5)
           RETURNING id)
         INSERT INTO bench_bare_posting (id, tenant_id, txn_id, account_id, account_kind, debit_fen,
           credit_fen, created_at)
         SELECT (random() * 1e15)::bigint, $1, t.id, 0, side.kind, side.debit, side.credit, now()
           FROM t, (VALUES ('cash', $3::bigint, 0::bigint), ('household', 0, $3)) AS side(kind, debit, credit)`,
        [data.tenantId, key, amountFen, householdId, data.cashierId],
      ),
    );
    return true;
  });
  return {
    describe: `cash recharges from ${plan.concurrency} concurrent cashiers for ${plan.seconds} s, each a tenant transaction through LedgerService.recharge, over ${households.length} households`,
    shuili: {
      perSecond: round(shuili.perSecond),
      completed,
      failures: shuili.failures,
      latency: latencySummary(shuili.latencies),
    },
    ledger: {
      txns: Number(check.txns),
      postings: Number(check.postings),
      lost,
      doubled,
      wrongBalances,
    },
    peer: {
      perSecond: round(peer.perSecond),
      completed: peer.completed - peer.failures,
      failures: peer.failures,
      latency: latencySummary(peer.latencies),
    },
    peerDescribe:
      'a bare INSERT of the same entries (a transaction row and its two postings, one statement) into tables of the same columns, no constraint, trigger, lock or check',
    shuiliOverPeer: round(shuili.perSecond / peer.perSecond),
    goal: {
      perSecond: GOALS.rechargesPerSecond,
      met: shuili.perSecond >= GOALS.rechargesPerSecond && lost === 0 && doubled === 0,
    },
  };
}

/** On PostgreSQL, VACUUM as autovacuum would before reads (the visibility map for index-only scans). */
async function vacuum(target: Target) {
  if (target.kind !== 'postgres') return;
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  await client.query(
    'VACUUM ANALYZE billing_txn, billing_posting, billing_account, billing_household',
  );
  await client.end();
}

async function measureBackend(backend: Backend, plan: Plan) {
  return withFreshTarget(backend, async (target) => {
    const db = await openTarget(target, plan.concurrency + 2);
    try {
      const data = await prepareLedger(db, plan.data);
      console.log(
        `ledger ${backend}: ${data.entries} entries (${data.postings} postings) in ${round(data.loadSeconds)} s`,
      );
      const [, vacuumMs] = await elapsed(() => vacuum(target));
      const [audit, auditMs] = await elapsed(() =>
        db.system(async (sql) => {
          await sql.query(`SET LOCAL statement_timeout = 0`);
          return auditLedger(sql, data.tenantId);
        }),
      );
      if (
        audit.unbalanced.length > 0 ||
        audit.brokenChains.length > 0 ||
        audit.negative > 0 ||
        audit.totalDebits !== audit.totalCredits
      )
        throw new Error(
          `the generated ledger is not sound: ${JSON.stringify(audit).slice(0, 500)}`,
        );
      const balance = await measureBalance(db, data, plan);
      const statistics = await measureStatistics(db, data, plan);
      const recharges = await measureRecharges(db, data, plan);
      return {
        backend,
        households: data.householdIds.length,
        villages: plan.data.villages,
        entries: data.entries,
        postings: data.postings,
        loadSeconds: round(data.loadSeconds),
        analyseSeconds: round(data.analyseSeconds + vacuumMs / 1000),
        auditSeconds: round(auditMs / 1000),
        balance,
        statistics,
        recharges,
      };
    } finally {
      await db.close();
    }
  });
}

/**
 * The billing ledger with 1,000,000 entries (issue 20): a household's balance (< 5 ms), a year's
 * statistics by village (< 500 ms) and sustained recharges (>= 200/s, zero lost or doubled)
 * against a bare INSERT of the same entries, on PostgreSQL (the issue's database; the smoke run
 * takes PGlite when there is no PostgreSQL). The service runs in this process on the server's
 * database layer: what an HTTP call adds is the list and user-list benchmarks' subject.
 */
export async function runLedger(smoke: boolean) {
  const started = performance.now();
  const load = watchLoad();
  const plan: Plan = smoke
    ? {
        data: { households: 200, villages: 5, entries: 10_000 },
        balanceRuns: 20,
        statisticsRuns: 2,
        concurrency: 4,
        seconds: 2,
      }
    : {
        data: { households: 10_000, villages: 50, entries: 1_000_000 },
        balanceRuns: 1_000,
        statisticsRuns: 10,
        concurrency: 16,
        seconds: 20,
      };
  const chosen: Backend[] = TEST_DATABASE_URL ? ['postgres'] : smoke ? ['pglite'] : [];
  if (chosen.length === 0)
    throw new Error('the ledger benchmark runs on PostgreSQL: set TEST_DATABASE_URL');
  const results = [];
  for (const backend of chosen) results.push(await measureBackend(backend, plan));
  const summary = {
    plan,
    goals: GOALS,
    entry: 'one ledger transaction (a recharge or a consumption) with its two postings',
    machineLoad: load(),
    runSeconds: round((performance.now() - started) / 1000),
    results,
  };
  const file = await writeResult('ledger', smoke, summary);
  return { file, summary };
}
