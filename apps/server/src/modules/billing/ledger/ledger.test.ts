import crypto from 'node:crypto';
import { LEDGER_CALLS } from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { auditLedger, insertHouseholds, soundAudit } from './ledger-test-kit';
import { LedgerService } from './ledger.service';

/*
 * The ledger's invariants (issue 20 item 7; DESIGN §7) against the real server over HTTP, and
 * through LedgerService in the server's own database for what controllers post (holds,
 * settlements): every transaction balances and so does the whole ledger; a key posts at most once
 * however many requests race with it, and the same key with another request is refused; no
 * household goes below zero whatever the order of parallel requests; nothing in the ledger can be
 * updated or deleted, except by removing its tenant; a hold ends once, a transaction is reversed
 * once.
 */
describe.each(BACKENDS)('billing ledger on $backend', ({ backend, available }) => {
  const test = it.skipIf(!available);
  let server: TestServer;
  let token: string;
  let tenantId: string;
  let cashierId: string;
  const ledger = new LedgerService();
  // Households of the demo tenant, each test taking fresh ones (balances start at zero).
  let households: string[] = [];
  const household = () => households.pop()!;
  const key = () => crypto.randomUUID();

  const post = (path: string, body: object, lang = 'en') =>
    call(server, 'POST', path, { token, body, lang });
  const balance = async (householdId: string) => {
    const answer = await call(server, 'GET', LEDGER_CALLS.balance, {
      token,
      query: { householdId },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data as { availableFen: number; heldFen: number };
  };
  const recharge = (householdId: string, amountFen: number, idempotencyKey = key()) =>
    post(LEDGER_CALLS.recharge, { householdId, amountFen, method: 'cash', idempotencyKey });
  /** Runs service calls in the tenant's context, as a module's request would. */
  const inTenant = <T>(
    work: (sql: Parameters<Parameters<TestServer['db']['tenant']>[1]>[0]) => Promise<T>,
  ) => server.db.tenant(tenantId, work);
  const count = async (table: string) =>
    Number(
      (
        await server.db.system((sql) =>
          sql.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${table}`),
        )
      ).rows[0]!.n,
    );

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    token = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
    const { rows } = await server.db.system((sql) =>
      sql.query<{ tenant: string; user: string }>(
        `SELECT t.id::text AS tenant, u.id::text AS user FROM tenant t
           JOIN sys_user u ON u.tenant_id = t.id AND u.username = 'admin'
          WHERE t.tenant_code = 'demo'`,
      ),
    );
    tenantId = rows[0]!.tenant;
    cashierId = rows[0]!.user;
    households = await server.db.system((sql) => insertHouseholds(sql, tenantId, 40));
  }, 120_000);

  afterAll(async () => {
    if (!server) return;
    // Whatever the tests did, the whole ledger balances and every balance chain holds.
    const audit = await server.db.system((sql) => auditLedger(sql));
    expect(audit).toEqual(soundAudit(audit));
    await server.close();
  });

  test('a recharge, a refund and a reversal move the balance; each is one balanced entry', async () => {
    const h = household();
    const charged = await recharge(h, 5_000);
    expect(charged.status, JSON.stringify(charged.body)).toBe(200);
    expect(charged.body.data).toEqual({ txnId: expect.stringMatching(/^\d+$/), replayed: false });
    expect(await balance(h)).toEqual({ householdId: h, availableFen: 5_000, heldFen: 0 });

    const refunded = await post(LEDGER_CALLS.refund, {
      householdId: h,
      amountFen: 1_200,
      idempotencyKey: key(),
    });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    expect((await balance(h)).availableFen).toBe(3_800);

    // The refund reversed: the money is back.
    const reversed = await post(LEDGER_CALLS.reverse, {
      txnId: refunded.body.data.txnId,
      idempotencyKey: key(),
      reason: 'Refunded to the wrong card user',
    });
    expect(reversed.status, JSON.stringify(reversed.body)).toBe(200);
    expect((await balance(h)).availableFen).toBe(5_000);

    const { rows } = await server.db.system((sql) =>
      sql.query<{
        kind: string;
        account: string;
        debit: string;
        credit: string;
        after: string | null;
        cashier: string;
      }>(
        `SELECT t.kind, a.kind AS account, p.debit_fen::text AS debit, p.credit_fen::text AS credit,
                p.balance_after_fen::text AS after, t.cashier_id::text AS cashier
           FROM billing_txn t JOIN billing_posting p ON p.txn_id = t.id
           JOIN billing_account a ON a.id = p.account_id
          WHERE t.household_id = $1 ORDER BY p.id`,
        [h],
      ),
    );
    // The signed-in user is the cashier whose drawer takes and pays the cash.
    expect(rows.every((row) => row.cashier === cashierId)).toBe(true);
    expect(rows.map((row) => [row.kind, row.account, row.debit, row.credit, row.after])).toEqual([
      ['recharge', 'cash', '5000', '0', null],
      ['recharge', 'household', '0', '5000', '5000'],
      ['refund', 'household', '1200', '0', '3800'],
      ['refund', 'cash', '0', '1200', null],
      ['reversal', 'household', '0', '1200', '5000'],
      ['reversal', 'cash', '1200', '0', null],
    ]);
  });

  test('an online recharge needs its payment reference; bad input is a translated 400 naming the field', async () => {
    const h = household();
    const missing = await post(
      LEDGER_CALLS.recharge,
      { householdId: h, amountFen: 100, method: 'online', idempotencyKey: key() },
      'zh',
    );
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([{ field: 'externalRef', message: '请输入支付流水号' }]);
    const online = await post(LEDGER_CALLS.recharge, {
      householdId: h,
      amountFen: 100,
      method: 'online',
      externalRef: 'WX20261126000123',
      idempotencyKey: key(),
    });
    expect(online.status, JSON.stringify(online.body)).toBe(200);
    for (const [field, body] of [
      ['amountFen', { householdId: h, amountFen: 0, method: 'cash', idempotencyKey: key() }],
      ['amountFen', { householdId: h, amountFen: 12.5, method: 'cash', idempotencyKey: key() }],
      ['amountFen', { householdId: h, amountFen: '100', method: 'cash', idempotencyKey: key() }],
      ['householdId', { householdId: 'x', amountFen: 1, method: 'cash', idempotencyKey: key() }],
      [
        'householdId',
        { householdId: '999999999999', amountFen: 1, method: 'cash', idempotencyKey: key() },
      ],
      [
        'cardId',
        {
          householdId: h,
          amountFen: 1,
          method: 'cash',
          idempotencyKey: key(),
          cardId: '999999999',
        },
      ],
      ['method', { householdId: h, amountFen: 1, method: 'card', idempotencyKey: key() }],
      ['idempotencyKey', { householdId: h, amountFen: 1, method: 'cash', idempotencyKey: 'a b' }],
      ['idempotencyKey', { householdId: h, amountFen: 1, method: 'cash' }],
    ] as const) {
      const refused = await post(LEDGER_CALLS.recharge, body, 'tw');
      expect(refused.status, `${field} ${JSON.stringify(body)}`).toBe(400);
      expect(refused.body.errors?.[0]?.field).toBe(field);
    }
    expect((await balance(h)).availableFen).toBe(100);
  });

  test('100 parallel recharges with one key post exactly one entry', async () => {
    const h = household();
    const idempotencyKey = key();
    const before = { txns: await count('billing_txn'), postings: await count('billing_posting') };
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => recharge(h, 2_500, idempotencyKey)),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    const txnIds = new Set(answers.map((answer) => answer.body.data.txnId));
    expect(txnIds.size).toBe(1);
    expect(answers.filter((answer) => !answer.body.data.replayed)).toHaveLength(1);
    expect(await count('billing_txn')).toBe(before.txns + 1);
    expect(await count('billing_posting')).toBe(before.postings + 2);
    expect((await balance(h)).availableFen).toBe(2_500);
  });

  test('the same key with a different request is refused (409 naming it) and posts nothing', async () => {
    const h = household();
    const idempotencyKey = key();
    expect((await recharge(h, 1_000, idempotencyKey)).status).toBe(200);
    const before = await count('billing_posting');
    const other = await post(
      LEDGER_CALLS.recharge,
      { householdId: h, amountFen: 1_001, method: 'cash', idempotencyKey },
      'zh',
    );
    expect(other.status).toBe(409);
    expect(other.body.errors).toEqual([
      { field: 'idempotencyKey', message: expect.stringContaining('请求键') },
    ]);
    // Nor may a refund reuse a recharge's key.
    const refund = await post(LEDGER_CALLS.refund, {
      householdId: h,
      amountFen: 1_000,
      idempotencyKey,
    });
    expect(refund.status).toBe(409);
    expect(await count('billing_posting')).toBe(before);
    expect((await balance(h)).availableFen).toBe(1_000);
    // The same request again is the same transaction.
    const again = await recharge(h, 1_000, idempotencyKey);
    expect(again.body.data.replayed).toBe(true);
  });

  test('a refund above the balance is a translated 409 naming the amount and the balance', async () => {
    const h = household();
    await recharge(h, 3_000);
    const refused = await post(
      LEDGER_CALLS.refund,
      { householdId: h, amountFen: 3_001, idempotencyKey: key() },
      'en',
    );
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([
      {
        field: 'amountFen',
        message: 'Amount: ¥30.01 is more than the available balance of ¥30.00',
      },
    ]);
    const zh = await post(
      LEDGER_CALLS.refund,
      { householdId: h, amountFen: 3_001, idempotencyKey: key() },
      'zh',
    );
    expect(zh.body.errors[0].message).toBe('金额：¥30.01 超过了可用余额 ¥30.00');
    expect((await balance(h)).availableFen).toBe(3_000);
  });

  test('no balance goes below zero whatever the order of 60 parallel holds, refunds and recharges', async () => {
    const h = household();
    await recharge(h, 10_000);
    const requests = Array.from({ length: 60 }, (_, i) => {
      const amountFen = 500 + ((i * 7919) % 2_000);
      const idempotencyKey = key();
      const kind = (['hold', 'refund', 'recharge'] as const)[i % 3]!;
      return { kind, amountFen, idempotencyKey };
    });
    const outcomes = await Promise.all(
      requests.map(async (request) => {
        if (request.kind === 'hold') {
          try {
            await inTenant((sql) => ledger.hold(sql, { tenantId, householdId: h, ...request }));
            return 200;
          } catch (error) {
            return (error as { status?: number }).status ?? 500;
          }
        }
        const answer =
          request.kind === 'recharge'
            ? await recharge(h, request.amountFen, request.idempotencyKey)
            : await post(LEDGER_CALLS.refund, {
                householdId: h,
                amountFen: request.amountFen,
                idempotencyKey: request.idempotencyKey,
              });
        return answer.status;
      }),
    );
    // Accepted or refused for the balance, nothing else.
    expect(outcomes.filter((status) => status !== 200 && status !== 409)).toEqual([]);
    const accepted = (kind: string) =>
      requests
        .filter((request, i) => request.kind === kind && outcomes[i] === 200)
        .reduce((sum, request) => sum + request.amountFen, 0);
    expect(outcomes.filter((status) => status === 409).length).toBeGreaterThan(0);
    expect(await balance(h)).toEqual({
      householdId: h,
      availableFen: 10_000 + accepted('recharge') - accepted('refund') - accepted('hold'),
      heldFen: accepted('hold'),
    });
    const audit = await server.db.system((sql) => auditLedger(sql));
    expect(audit).toEqual(soundAudit(audit));
  });

  test('a hold is settled or voided at most once, however many try together', async () => {
    const h = household();
    await recharge(h, 8_000);
    const held = await inTenant((sql) =>
      ledger.hold(sql, { tenantId, householdId: h, amountFen: 3_000, idempotencyKey: key() }),
    );
    const attempts = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        inTenant((sql) =>
          i % 2 === 0
            ? ledger.settle(sql, {
                tenantId,
                holdTxnId: held.txnId,
                amountFen: 1_250,
                idempotencyKey: key(),
              })
            : ledger.voidHold(sql, { tenantId, holdTxnId: held.txnId, idempotencyKey: key() }),
        ),
      ),
    );
    const won = attempts.filter((attempt) => attempt.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const attempt of attempts)
      if (attempt.status === 'rejected')
        expect((attempt.reason as { key?: string }).key).toBe('billing.holdEnded');
    const settled = attempts.findIndex((attempt) => attempt.status === 'fulfilled') % 2 === 0;
    expect(await balance(h)).toEqual({
      householdId: h,
      availableFen: settled ? 8_000 - 1_250 : 8_000,
      heldFen: 0,
    });
  });

  test('a settlement above the hold takes the rest from the balance, or refuses, or goes to arrears, which a recharge pays first', async () => {
    const h = household();
    await recharge(h, 1_000);
    const hold = () =>
      inTenant((sql) =>
        ledger.hold(sql, { tenantId, householdId: h, amountFen: 500, idempotencyKey: key() }),
      );
    const first = await hold();
    await inTenant((sql) =>
      ledger.settle(sql, {
        tenantId,
        holdTxnId: first.txnId,
        amountFen: 700,
        idempotencyKey: key(),
      }),
    );
    expect(await balance(h)).toEqual({ householdId: h, availableFen: 300, heldFen: 0 });
    const second = await hold().catch((error: { key: string }) => error.key);
    expect(second).toBe('billing.insufficientBalance');
    const third = await inTenant((sql) =>
      ledger.hold(sql, { tenantId, householdId: h, amountFen: 300, idempotencyKey: key() }),
    );
    await expect(
      inTenant((sql) =>
        ledger.settle(sql, {
          tenantId,
          holdTxnId: third.txnId,
          amountFen: 400,
          idempotencyKey: key(),
        }),
      ),
    ).rejects.toMatchObject({ key: 'billing.insufficientBalance' });
    await inTenant((sql) =>
      ledger.settle(sql, {
        tenantId,
        holdTxnId: third.txnId,
        amountFen: 400,
        allowArrears: true,
        idempotencyKey: key(),
      }),
    );
    expect(await balance(h)).toEqual({ householdId: h, availableFen: 0, heldFen: 0 });
    const owed = async () =>
      (
        await server.db.system((sql) =>
          sql.query<{ owed: string }>(
            `SELECT coalesce(sum(p.debit_fen - p.credit_fen), 0)::text AS owed
               FROM billing_posting p JOIN billing_account a ON a.id = p.account_id
              WHERE a.kind = 'arrears' AND a.owner_id = $1`,
            [h],
          ),
        )
      ).rows[0]!.owed;
    expect(await owed()).toBe('100');
    // The next recharge pays what is owed first: 300 in, 100 to the arrears, 200 to spend.
    await recharge(h, 300);
    expect(await owed()).toBe('0');
    expect(await balance(h)).toEqual({ householdId: h, availableFen: 200, heldFen: 0 });
    // A recharge smaller than the debt goes to it whole.
    await inTenant((sql) =>
      ledger.consume(sql, {
        tenantId,
        householdId: h,
        amountFen: 450,
        allowArrears: true,
        idempotencyKey: key(),
      }),
    );
    expect(await owed()).toBe('250');
    await recharge(h, 100);
    expect(await owed()).toBe('150');
    expect(await balance(h)).toEqual({ householdId: h, availableFen: 0, heldFen: 0 });
    await recharge(h, 350);
    expect(await owed()).toBe('0');
    // A settlement of nothing releases the hold.
    const fourth = await inTenant((sql) =>
      ledger.hold(sql, { tenantId, householdId: h, amountFen: 200, idempotencyKey: key() }),
    );
    await inTenant((sql) =>
      ledger.settle(sql, {
        tenantId,
        holdTxnId: fourth.txnId,
        amountFen: 0,
        idempotencyKey: key(),
      }),
    );
    expect(await balance(h)).toEqual({ householdId: h, availableFen: 200, heldFen: 0 });
  });

  test('a transaction is reversed at most once, however many try together', async () => {
    const h = household();
    const charged = await recharge(h, 4_000);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        post(LEDGER_CALLS.reverse, {
          txnId: charged.body.data.txnId,
          idempotencyKey: key(),
          reason: 'Typed 40 instead of 4',
        }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    for (const answer of answers.filter((one) => one.status !== 200)) {
      expect(answer.status).toBe(409);
      expect(answer.body.errors[0].field).toBe('txnId');
    }
    expect((await balance(h)).availableFen).toBe(0);
    // A reversal cannot be reversed, a missing transaction is named.
    const reversal = answers.find((answer) => answer.status === 200)!.body.data.txnId;
    const again = await post(LEDGER_CALLS.reverse, {
      txnId: reversal,
      idempotencyKey: key(),
      reason: 'x',
    });
    expect([again.status, again.body.errors[0].field]).toEqual([400, 'txnId']);
    const missing = await post(LEDGER_CALLS.reverse, {
      txnId: '999999999999',
      idempotencyKey: key(),
      reason: 'x',
    });
    expect([missing.status, missing.body.errors[0].field]).toEqual([400, 'txnId']);
    // A reversal of a recharge already spent is refused like any overdraft.
    const h2 = household();
    const spent = await recharge(h2, 500);
    await post(LEDGER_CALLS.refund, { householdId: h2, amountFen: 400, idempotencyKey: key() });
    const overdraft = await post(LEDGER_CALLS.reverse, {
      txnId: spent.body.data.txnId,
      idempotencyKey: key(),
      reason: 'x',
    });
    expect([overdraft.status, overdraft.body.errors[0].field]).toEqual([409, 'txnId']);
  });

  test('the database refuses UPDATE, DELETE and TRUNCATE on the ledger, the owner included', async () => {
    const h = household();
    await recharge(h, 700);
    for (const statement of [
      `UPDATE billing_txn SET amount_fen = amount_fen + 1 WHERE household_id = ${h}`,
      `DELETE FROM billing_txn WHERE household_id = ${h}`,
      `UPDATE billing_posting SET credit_fen = 1 WHERE txn_id IN (SELECT id FROM billing_txn WHERE household_id = ${h})`,
      `DELETE FROM billing_posting WHERE txn_id IN (SELECT id FROM billing_txn WHERE household_id = ${h})`,
      'TRUNCATE billing_posting',
      'TRUNCATE billing_txn CASCADE',
    ]) {
      await expect(
        server.db.system((sql) => sql.query(statement)),
        statement,
      ).rejects.toThrow(/append-only/);
      await expect(
        inTenant((sql) => sql.query(statement)),
        statement,
      ).rejects.toThrow();
    }
    expect((await balance(h)).availableFen).toBe(700);
    // Postings that do not balance never commit.
    await expect(
      server.db.system(async (sql) => {
        const { rows } = await sql.query<{ id: string }>(
          `INSERT INTO billing_txn (tenant_id, idempotency_key, request_hash, kind, amount_fen,
             household_id, method) VALUES ($1, $2, 'x', 'recharge', 100, $3, 'cash') RETURNING id::text`,
          [tenantId, key(), h],
        );
        const account = await sql.query<{ id: string }>(
          `SELECT id::text FROM billing_account WHERE tenant_id = $1 AND kind = 'cash' LIMIT 1`,
          [tenantId],
        );
        await sql.query(
          `INSERT INTO billing_posting (tenant_id, txn_id, account_id, account_kind, debit_fen)
           VALUES ($1, $2, $3, 'cash', 100)`,
          [tenantId, rows[0]!.id, account.rows[0]!.id],
        );
      }),
    ).rejects.toThrow(/does not balance/);
  });

  test("a tenant's removal takes its ledger with it", async () => {
    const { rows } = await server.db.system((sql) =>
      sql.query<{ id: string }>(
        `INSERT INTO tenant (tenant_code, tenant_name) VALUES ($1, 'Ledger removal') RETURNING id::text`,
        [`ledger${crypto.randomBytes(3).toString('hex')}`],
      ),
    );
    const gone = rows[0]!.id;
    const h = (await server.db.system((sql) => insertHouseholds(sql, gone, 1)))[0]!;
    await server.db.tenant(gone, async (sql) => {
      const charged = await ledger.recharge(sql, {
        tenantId: gone,
        householdId: h,
        amountFen: 900,
        method: 'online',
        externalRef: 'ALI-1',
        idempotencyKey: key(),
      });
      await ledger.reverse(sql, { tenantId: gone, txnId: charged.txnId, idempotencyKey: key() });
    });
    const rowsOf = async () =>
      Number(
        (
          await server.db.system((sql) =>
            sql.query<{ n: string }>(
              `SELECT ((SELECT count(*) FROM billing_txn WHERE tenant_id = $1)
                     + (SELECT count(*) FROM billing_posting WHERE tenant_id = $1)
                     + (SELECT count(*) FROM billing_account WHERE tenant_id = $1))::text AS n`,
              [gone],
            ),
          )
        ).rows[0]!.n,
      );
    // Two txns of two postings each; the online, household and (looked up by the recharge)
    // arrears accounts.
    expect(await rowsOf()).toBe(2 + 4 + 3);
    // The household cannot go while the ledger names it; with its tenant, it can.
    await expect(
      server.db.system((sql) => sql.query('DELETE FROM billing_household WHERE id = $1', [h])),
    ).rejects.toThrow();
    await server.db.system((sql) => sql.query('DELETE FROM tenant WHERE id = $1', [gone]));
    expect(await rowsOf()).toBe(0);
  });

  test("another tenant's households and transactions are out of reach", async () => {
    const h = household();
    const charged = await recharge(h, 600);
    const acme = (await signIn(server, 'acme', 'admin', 'admin123')).access_token;
    const theirs = await call(server, 'GET', LEDGER_CALLS.balance, {
      token: acme,
      query: { householdId: h },
    });
    expect([theirs.status, theirs.body.errors?.[0]?.field]).toEqual([400, 'householdId']);
    const recharged = await call(server, 'POST', LEDGER_CALLS.recharge, {
      token: acme,
      body: { householdId: h, amountFen: 100, method: 'cash', idempotencyKey: key() },
    });
    expect([recharged.status, recharged.body.errors?.[0]?.field]).toEqual([400, 'householdId']);
    const reversal = await call(server, 'POST', LEDGER_CALLS.reverse, {
      token: acme,
      body: { txnId: charged.body.data.txnId, idempotencyKey: key(), reason: 'x' },
    });
    expect([reversal.status, reversal.body.errors?.[0]?.field]).toEqual([400, 'txnId']);
    expect((await balance(h)).availableFen).toBe(600);
  });
});
