import crypto from 'node:crypto';
import { CARD_CALLS, LEDGER_CALLS } from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { auditLedger, insertHouseholds, soundAudit } from './ledger-test-kit';

/*
 * The plain ledger refund next to the desk's (an attacker's review of issue 20): the cashier role
 * holds both, but only the desk's writes the lower balance onto the card. Refunded through the
 * plain call, the farmer would hold the cash and a card still carrying it, spendable at
 * controllers offline. With a card in use the plain refund is a translated 409 naming the
 * household; without one (no card yet, or the card reported lost) it refunds as before.
 */
describe.each(BACKENDS)(
  'plain refunds of carded households on $backend',
  ({ backend, available }) => {
    const test = it.skipIf(!available);
    let server: TestServer;
    let cashier: string;
    let tenantId: string;
    const key = () => crypto.randomUUID();

    beforeAll(async () => {
      if (!available) return;
      server = await startTestServer({ backend });
      cashier = (await signIn(server, 'demo', 'cashier', 'cashier123')).access_token;
      const { rows } = await server.db.system((sql) =>
        sql.query<{ id: string }>(`SELECT id::text FROM tenant WHERE tenant_code = 'demo'`),
      );
      tenantId = rows[0]!.id;
    }, 120_000);

    afterAll(async () => {
      if (!server) return;
      const audit = await server.db.system((sql) => auditLedger(sql));
      expect(audit).toEqual(soundAudit(audit));
      await server.close();
    });

    const post = (path: string, body: object, lang = 'en') =>
      call(server, 'POST', path, { token: cashier, body, lang });

    test('a household whose card is in use is refunded at the desk only', async () => {
      const [householdId] = await server.db.system((sql) => insertHouseholds(sql, tenantId, 1));
      const cardNo = 'C0DE0001';
      await server.db.system((sql) =>
        sql.query(
          `INSERT INTO billing_card (tenant_id, card_no, card_type, card_state, issued_at)
         VALUES ($1, $2, 'user', 'registered', now())`,
          [tenantId, cardNo],
        ),
      );
      expect(
        (await post(CARD_CALLS.bind, { idempotencyKey: key(), cardNo, householdId })).status,
      ).toBe(200);
      const recharged = await post(CARD_CALLS.recharge, {
        idempotencyKey: key(),
        cardNo,
        amountFen: 3_000,
        method: 'cash',
        cardSequence: 0,
      });
      expect(recharged.status, JSON.stringify(recharged.body)).toBe(200);

      const plain = await post(
        LEDGER_CALLS.refund,
        { householdId, amountFen: 3_000, idempotencyKey: key() },
        'zh',
      );
      expect(plain.status, JSON.stringify(plain.body)).toBe(409);
      expect(plain.body.errors).toEqual([
        { field: 'householdId', message: `用卡户：该户正在使用卡 ${cardNo}，请在柜台退款并写卡` },
      ]);
      const atDesk = await post(CARD_CALLS.refund, {
        idempotencyKey: key(),
        cardNo,
        amountFen: 1_000,
        cardSequence: 1,
      });
      expect(atDesk.status, JSON.stringify(atDesk.body)).toBe(200);
      expect(atDesk.body.data.write.image.balanceFen).toBe(2_000);

      // Reported lost, the card is out of use: the plain refund pays what is left.
      expect((await post(CARD_CALLS.reportLost, { idempotencyKey: key(), cardNo })).status).toBe(
        200,
      );
      const refundKey = key();
      const lost = await post(LEDGER_CALLS.refund, {
        householdId,
        amountFen: 2_000,
        idempotencyKey: refundKey,
      });
      expect(lost.status, JSON.stringify(lost.body)).toBe(200);
    });
  },
);
