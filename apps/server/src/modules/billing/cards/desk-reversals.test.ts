import { randomUUID } from 'node:crypto';
import {
  CARD_CALLS,
  LEDGER_CALLS,
  type CardWrite,
  type DeskCard,
  type DeskResult,
} from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { auditLedger, insertHouseholds, soundAudit } from '../ledger/ledger-test-kit';

/*
 * Write after commit against a correction made elsewhere (an attacker's review of issue 20): an
 * administrator reverses a desk recharge in the ledger while its card write is still pending. The
 * image (the balance with the recharge) must no longer be offered to the desk nor be confirmed
 * written, or the card would carry money the ledger took back, spendable at controllers offline.
 */
describe.each(BACKENDS)(
  'card writes of reversed transactions on $backend',
  ({ backend, available }) => {
    const test = it.skipIf(!available);
    let server: TestServer;
    let admin: string;
    let cashier: string;
    let tenantId: string;

    beforeAll(async () => {
      if (!available) return;
      server = await startTestServer({ backend });
      admin = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
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

    const post = <T = DeskResult>(token: string, path: string, body: object) =>
      call<{ data: T; errors?: Array<{ field: string }> }>(server, 'POST', path, {
        token,
        body,
        lang: 'en',
      });

    test("a recharge reversed in the ledger takes its pending write off the desk; it can't be confirmed written", async () => {
      const [householdId] = await server.db.system((sql) => insertHouseholds(sql, tenantId, 1));
      const cardNo = 'D0E5A001';
      await server.db.system((sql) =>
        sql.query(
          `INSERT INTO billing_card (tenant_id, card_no, card_type, card_state, issued_at)
         VALUES ($1, $2, 'user', 'registered', now())`,
          [tenantId, cardNo],
        ),
      );
      expect(
        (
          await post(cashier, CARD_CALLS.bind, {
            idempotencyKey: randomUUID(),
            cardNo,
            householdId,
          })
        ).status,
      ).toBe(200);
      const recharged = await post(cashier, CARD_CALLS.recharge, {
        idempotencyKey: randomUUID(),
        cardNo,
        amountFen: 1000,
        method: 'cash',
        cardSequence: 0,
      });
      expect(recharged.status, JSON.stringify(recharged.body)).toBe(200);
      const write = recharged.body.data.write!;

      const reversed = await post(admin, LEDGER_CALLS.reverse, {
        txnId: recharged.body.data.txnId,
        idempotencyKey: randomUUID(),
        reason: 'Recharged the wrong card user',
      });
      expect(reversed.status, JSON.stringify(reversed.body)).toBe(200);

      const desk = await call<{ data: DeskCard }>(server, 'GET', CARD_CALLS.deskCard, {
        token: cashier,
        query: { cardNo },
      });
      expect(desk.body.data.balance).toEqual({ availableFen: 0, heldFen: 0 });
      expect(desk.body.data.pendingWrites).toEqual([]);
      const open = await call<{ data: CardWrite[] }>(server, 'GET', CARD_CALLS.writes, {
        token: cashier,
        query: { cardNo },
      });
      expect(open.body.data).toEqual([]);

      const confirmed = await post<CardWrite>(cashier, CARD_CALLS.confirmWrite, {
        writeId: write.id,
        outcome: 'written',
      });
      expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(409);
      expect(confirmed.body.errors?.[0]?.field).toBe('writeId');
      // Giving it up answers the reversal already made, and reverses nothing twice.
      const givenUp = await post<CardWrite>(cashier, CARD_CALLS.reverseWrite, {
        writeId: write.id,
        idempotencyKey: randomUUID(),
      });
      expect(givenUp.status, JSON.stringify(givenUp.body)).toBe(200);
      expect(givenUp.body.data.reversalTxnId).toBe(reversed.body.data.txnId);
    });
  },
);
