import crypto from 'node:crypto';
import { LEDGER_CALLS } from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { auditLedger, insertHouseholds, soundAudit } from './ledger-test-kit';

/*
 * One online payment is one recharge (an attacker's review of issue 20): its payment reference
 * posted again under another idempotency key (a client that lost its key, a second desk, parallel
 * retries) would credit the household twice from one payment. The second is a translated 409
 * naming externalRef; after a reversal the reference stays spent.
 */
describe.each(BACKENDS)('online payment references on $backend', ({ backend, available }) => {
  const test = it.skipIf(!available);
  let server: TestServer;
  let token: string;
  let households: string[];
  const key = () => crypto.randomUUID();

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer({ backend });
    token = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
    const { rows } = await server.db.system((sql) =>
      sql.query<{ id: string }>(`SELECT id::text FROM tenant WHERE tenant_code = 'demo'`),
    );
    households = await server.db.system((sql) => insertHouseholds(sql, rows[0]!.id, 2));
  }, 120_000);

  afterAll(async () => {
    if (!server) return;
    const audit = await server.db.system((sql) => auditLedger(sql));
    expect(audit).toEqual(soundAudit(audit));
    await server.close();
  });

  const balance = async (householdId: string) =>
    (await call(server, 'GET', LEDGER_CALLS.balance, { token, query: { householdId } })).body.data
      .availableFen as number;
  const online = (householdId: string, externalRef: string, lang = 'en') =>
    call(server, 'POST', LEDGER_CALLS.recharge, {
      token,
      lang,
      body: { householdId, amountFen: 5_000, method: 'online', externalRef, idempotencyKey: key() },
    });

  test('a payment reference recharges once, whatever the keys and however many race', async () => {
    const [h, other] = households as [string, string];
    const results = await Promise.all(Array.from({ length: 8 }, () => online(h, 'WX2026112699')));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    expect(await balance(h)).toBe(5_000);

    const again = await online(other, 'WX2026112699', 'zh');
    expect(again.status, JSON.stringify(again.body)).toBe(409);
    expect(again.body.errors).toEqual([
      { field: 'externalRef', message: '支付流水号：支付 WX2026112699 已经充值过' },
    ]);
    expect(await balance(other)).toBe(0);

    // Reversed, the payment is still spent: recharging it again would be the same money twice.
    const first = results.find((r) => r.status === 200)!;
    const reversed = await call(server, 'POST', LEDGER_CALLS.reverse, {
      token,
      body: { txnId: first.body.data.txnId, idempotencyKey: key(), reason: 'Paid twice' },
    });
    expect(reversed.status, JSON.stringify(reversed.body)).toBe(200);
    expect((await online(h, 'WX2026112699')).status).toBe(409);
    // Another reference is another payment.
    expect((await online(h, 'WX2026112700')).status).toBe(200);
  });
});
