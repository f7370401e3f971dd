import { BILLING_REPORT_CALLS, LEDGER_CALLS, type CashReport } from '@shuili/contract';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { demoDesk } from '../ledger/ledger-test-kit';

/*
 * A cashier counts their own drawer (report-grants.ts): the cashier role's cash report is theirs,
 * and another cashier's day (what they took and paid out) is an administrator's to read.
 */
describe.each(BACKENDS)('the cash report per cashier on $backend', ({ backend, available }) => {
  const test = it.skipIf(!available);
  let server: TestServer;
  let admin: string;
  let cashier: string;
  let adminId: string;
  let cashierId: string;

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    let householdId: string;
    ({ admin, cashier, adminId, cashierId, householdId } = await demoDesk(server));
    // Both take cash today.
    for (const token of [admin, cashier]) {
      const recharged = await call(server, 'POST', LEDGER_CALLS.recharge, {
        token,
        body: { householdId, amountFen: 1234, method: 'cash', idempotencyKey: randomUUID() },
      });
      expect(recharged.status, JSON.stringify(recharged.body)).toBe(200);
    }
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  const report = (token: string, query: Record<string, string> = {}) =>
    call<{ data: CashReport; errors?: Array<{ field: string }> }>(
      server,
      'GET',
      BILLING_REPORT_CALLS.cashReport,
      { token, query },
    );

  test("a cashier reads their own drawer only; another cashier's is refused naming cashierId", async () => {
    const own = await report(cashier);
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(own.body.data.rows.map((row) => row.cashierId)).toEqual([cashierId]);
    expect(own.body.data.entries.every((entry) => entry.cashierId === cashierId)).toBe(true);
    expect((await report(cashier, { cashierId })).status).toBe(200);

    const theirs = await report(cashier, { cashierId: adminId });
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(403);
    expect(theirs.body.errors?.[0]?.field).toBe('cashierId');
    const exported = await call(server, 'POST', BILLING_REPORT_CALLS.exportCashReport, {
      token: cashier,
      query: { cashierId: adminId, format: 'xlsx' },
    });
    expect(exported.status).toBe(403);

    // The administrator reads every drawer.
    const all = await report(admin);
    expect(all.status).toBe(200);
    expect(all.body.data.rows.map((row) => row.cashierId)).toEqual(
      expect.arrayContaining([adminId, cashierId]),
    );
  });
});
