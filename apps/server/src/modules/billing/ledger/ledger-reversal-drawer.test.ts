import crypto from 'node:crypto';
import { BILLING_REPORT_CALLS, LEDGER_CALLS, type CashReport } from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { auditLedger, demoDesk, soundAudit } from './ledger-test-kit';

/*
 * Whose drawer a reversal moves (an attacker's review of issue 20): the daily cash report counts
 * a reversed cash amount for the cashier who reversed it, so the ledger's cash accounts must move
 * that cashier's drawer too, not the original cashier's; else the two disagree on every drawer.
 */
describe.each(BACKENDS)('the drawer of a reversal on $backend', ({ backend, available }) => {
  const test = it.skipIf(!available);
  let server: TestServer;
  let admin: string;
  let cashier: string;
  let adminId: string;
  let cashierId: string;
  let householdId: string;

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    ({ admin, cashier, adminId, cashierId, householdId } = await demoDesk(server));
  }, 120_000);

  afterAll(async () => {
    if (!server) return;
    const audit = await server.db.system((sql) => auditLedger(sql));
    expect(audit).toEqual(soundAudit(audit));
    await server.close();
  });

  /** Each cashier's drawer as the ledger's cash accounts hold it (debits in, credits out). */
  const drawers = async () => {
    const { rows } = await server.db.system((sql) =>
      sql.query<{ owner: string; net: string }>(
        `SELECT a.owner_id::text AS owner, sum(p.debit_fen - p.credit_fen)::text AS net
           FROM billing_posting p JOIN billing_account a ON a.id = p.account_id
           JOIN billing_txn t ON t.id = p.txn_id
          WHERE a.kind = 'cash' AND t.household_id = $1
          GROUP BY a.owner_id`,
        [householdId],
      ),
    );
    return Object.fromEntries(rows.map((row) => [row.owner, Number(row.net)]));
  };

  test("an administrator's reversal of a cashier's cash recharge moves the administrator's drawer, as the cash report says", async () => {
    const recharged = await call(server, 'POST', LEDGER_CALLS.recharge, {
      token: cashier,
      body: { householdId, amountFen: 2_500, method: 'cash', idempotencyKey: crypto.randomUUID() },
    });
    expect(recharged.status, JSON.stringify(recharged.body)).toBe(200);
    const reversed = await call(server, 'POST', LEDGER_CALLS.reverse, {
      token: admin,
      body: {
        txnId: recharged.body.data.txnId,
        idempotencyKey: crypto.randomUUID(),
        reason: 'Paid back at the head office',
      },
    });
    expect(reversed.status, JSON.stringify(reversed.body)).toBe(200);

    expect(await drawers()).toEqual({ [cashierId]: 2_500, [adminId]: -2_500 });
    const report = await call<{ data: CashReport }>(
      server,
      'GET',
      BILLING_REPORT_CALLS.cashReport,
      {
        token: admin,
      },
    );
    const mine = report.body.data.entries.filter((entry) =>
      [recharged.body.data.txnId, reversed.body.data.txnId].includes(entry.txnId),
    );
    expect(mine.map((entry) => [entry.cashierId, entry.amountFen])).toEqual([
      [cashierId, 2_500],
      [adminId, -2_500],
    ]);
  });
});
